// The differences README's "Known differences" explains, as the harness recognises them:
//   tests   a Lib/test file whose run fails exactly the listed tests (and no others) under the
//           listed Python versions, while python3 passes them all;
//   output  a program whose run, in the listed modes and versions, has python3's exit status and
//           files, and whose first differing line of each stream (ours) shows what README names.
// Anything else that differs — another test, another mode, another version, another exit
// status, another line — is still reported as `differs`.

import type { Difference } from "./compare.js";
import type { Run } from "./run-mode.js";

interface Documented {
  program: string;
  /** "3.11", "3.12", "3.13": the major.minor versions it applies to. */
  pythons: string[];
  modes: ("unconfigured" | "configured")[];
  /** The item of README's "Known differences" that says why. */
  readme: string;
}

export type DocumentedDifference =
  /** The unittest names (`test_x`) that fail in that mode and pass under python3. */
  | (Documented & { kind: "tests"; failing: string[] })
  /** What each first differing line of ours shows. */
  | (Documented & { kind: "output"; shows: RegExp });

const ALL = ["3.11", "3.12", "3.13"];
const THREAD = "a thread of aiython's once the run speaks with the model: _thread._count() counts it from then on";
const LOADER = "a tracer or profiler on while a project module is imported sees aiython's loader (model configured)";

export const DOCUMENTED: DocumentedDifference[] = [
  {
    kind: "tests",
    program: "test_sys_settrace",
    pythons: ["3.12", "3.13"],
    modes: ["configured"],
    failing: ["test_jump_in_nested_finally_2", "test_jump_in_nested_finally_3"],
    readme: "a debugger's jump out of a finally block that is re-raising lands differently",
  },
  {
    kind: "tests",
    program: "test_patma",
    pythons: ["3.13"],
    modes: ["configured"],
    failing: ["test_jump_threading"],
    readme: "dis of instrumented code shows the checkpoints (3.13: a jump without a line number)",
  },
  {
    kind: "output",
    program: "process-first-line",
    pythons: ALL,
    modes: ["configured"],
    shows: /^path_hooks \['aiython_bridge\.preparation\.import_hook\./,
    readme: "with a model configured, sys.path_hooks starts with the project hook",
  },
  {
    kind: "output",
    program: "test_asyncio.test_tasks",
    pythons: ALL,
    modes: ["configured"],
    shows: /^test_exception_traceback \(.*\) \.\.\. Warning -- threading_cleanup\(\) failed to clean up threads/,
    readme: THREAD,
  },
  {
    kind: "output",
    program: "process-marshal",
    pythons: ALL,
    modes: ["configured"],
    shows: /^marshal: unmarshallable object$/,
    readme: "marshal of instrumented code",
  },
  {
    kind: "output",
    program: "process-inspect",
    pythons: ALL,
    modes: ["configured"],
    shows: /^(starts|sizeof|positions) /,
    readme: "instrumented bytecode: dis and the code object show the handlers' line starts, positions and size",
  },
  { kind: "output", program: "process-trace-trackcalls", pythons: ALL, modes: ["configured"], shows: /import_hook/, readme: LOADER },
  { kind: "output", program: "process-trace-listfuncs", pythons: ALL, modes: ["configured"], shows: /import_hook/, readme: LOADER },
  {
    kind: "output",
    program: "process-monitoring",
    pythons: ["3.12", "3.13"],
    modes: ["configured"],
    shows: /^(exception_handled|reraise) helper\.py parse /,
    readme: "a sys.monitoring tool sees a checkpoint's handler catch and re-raise (model configured)",
  },
];

const VERDICT = /^(test\w*) \(.*\) \.\.\. (?:FAIL|ERROR|unexpected success)$/gm;

/** The documented difference that explains `ours` (with `differences`) against python3's `theirs`, if one does exactly. */
export function documentedDifference(program: string, mode: string, version: string, ours: Run, theirs: Run, differences: Difference[]): DocumentedDifference | undefined {
  const minor = version.split(".").slice(0, 2).join(".");
  const entry = DOCUMENTED.find((d) => d.program === program && (d.modes as string[]).includes(mode) && d.pythons.includes(minor));
  if (!entry || ours.timedOut) return undefined;
  if (entry.kind === "output") {
    const lines = differences.every((d) => d.kind === "line");
    return lines && differences.every((d) => d.kind === "line" && entry.shows.test(d.ours ?? "")) ? entry : undefined;
  }
  if (theirs.exit !== "0" || ours.exit !== "1") return undefined;
  if (failingTests(theirs).length) return undefined;
  const failing = failingTests(ours);
  const expected = [...entry.failing].sort();
  return failing.length === expected.length && failing.every((name, i) => name === expected[i]) ? entry : undefined;
}

function failingTests(run: Run): string[] {
  return [...`${run.stdout}\n${run.stderr}`.matchAll(VERDICT)].map((m) => m[1]).sort();
}
