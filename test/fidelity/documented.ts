// The differences README's "Known differences" explains, as the harness recognises them: a
// Lib/test file whose configured run fails exactly the listed tests (and no others) under the
// listed Python versions, while python3 passes them all. Anything else that differs — another
// test, another mode, another version, another exit status — is still reported as `differs`.

import type { Run } from "./run-mode.js";

export interface DocumentedDifference {
  program: string;
  /** "3.12", "3.13": the major.minor versions it applies to. */
  pythons: string[];
  mode: "configured";
  /** The unittest names (`test_x`) that fail in that mode and pass under python3. */
  failing: string[];
  /** The item of README's "Known differences" that says why. */
  readme: string;
}

export const DOCUMENTED: DocumentedDifference[] = [
  {
    program: "test_sys_settrace",
    pythons: ["3.12", "3.13"],
    mode: "configured",
    failing: ["test_jump_in_nested_finally_2", "test_jump_in_nested_finally_3"],
    readme: "a debugger's jump out of a finally block that is re-raising lands differently",
  },
  {
    program: "test_patma",
    pythons: ["3.13"],
    mode: "configured",
    failing: ["test_jump_threading"],
    readme: "dis of instrumented code shows the checkpoints (3.13: a jump without a line number)",
  },
];

const VERDICT = /^(test\w*) \(.*\) \.\.\. (?:FAIL|ERROR|unexpected success)$/gm;

/** The documented difference that explains `ours` against python3's `theirs`, if one does exactly. */
export function documentedDifference(program: string, mode: string, version: string, ours: Run, theirs: Run): DocumentedDifference | undefined {
  const minor = version.split(".").slice(0, 2).join(".");
  const entry = DOCUMENTED.find((d) => d.program === program && d.mode === mode && d.pythons.includes(minor));
  if (!entry || ours.timedOut || theirs.exit !== "0" || ours.exit !== "1") return undefined;
  if (failingTests(theirs).length) return undefined;
  const failing = failingTests(ours);
  const expected = [...entry.failing].sort();
  return failing.length === expected.length && failing.every((name, i) => name === expected[i]) ? entry : undefined;
}

function failingTests(run: Run): string[] {
  return [...`${run.stdout}\n${run.stderr}`.matchAll(VERDICT)].map((m) => m[1]).sort();
}
