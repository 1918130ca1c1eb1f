// The lines a fidelity run prints: one per program (one per differing mode), then the total.
//   identical  NAME
//   documented NAME (configured): fails test_a, test_b as README's "Known differences" says: <why>
//   documented NAME (configured): first differing line: …, as README's "Known differences" says: <why>
//   differs    NAME (configured): first differing line: stderr:12: <ours> | <theirs>; exit status 1 | 0; left behind: .aiython/
//   skipped    NAME: why this interpreter cannot run it
//   broken     NAME: why its project folder could not be made
//   mode       3.12.1 configured: N identical, N documented, N differ   (one per mode, then the total)
// "ours" is the aiython run (or python3's second run under --calibrate), "theirs" python3's.

import type { Difference } from "./compare.js";
import { isAccepted, isIdentical, type ProgramResult } from "./fidelity.js";
import type { Interpreter } from "./interpreter.js";

const WIDTH = 110;

export function resultLines(result: ProgramResult): string[] {
  const name = result.name;
  switch (result.status) {
    case "skipped":
      return [`skipped    ${name}: ${result.reason}`];
    case "broken":
      return [`broken     ${name}: ${result.reason}`];
    case "compared":
      if (isIdentical(result)) return [`identical  ${name}`];
      return result.modes
        .filter((m) => m.differences.length)
        .map((m) => {
          const known = m.documented;
          if (known?.kind === "tests") return `documented ${name} (${m.mode}): fails ${known.failing.join(", ")} as README's "Known differences" says: ${known.readme}`;
          if (known) return `documented ${name} (${m.mode}): ${m.differences.map(describe).join("; ")}, as README's "Known differences" says: ${known.readme}`;
          return `differs    ${name} (${m.mode}): ${m.differences.map(describe).join("; ")}`;
        });
  }
}

export function totalLine(results: ProgramResult[], interp: Interpreter): string {
  const identical = results.filter((r) => r.status === "compared" && isIdentical(r)).length;
  const documented = results.filter((r) => r.status === "compared" && !isIdentical(r) && isAccepted(r)).length;
  const skipped = results.filter((r) => r.status === "skipped").length;
  const differ = results.length - identical - documented - skipped;
  const documentedPart = documented ? `, ${documented} documented` : "";
  const skippedPart = skipped ? `, ${skipped} skipped` : "";
  return `fidelity: ${results.length} program${results.length === 1 ? "" : "s"}, ${identical} identical${documentedPart}, ${differ} differ${skippedPart} (Python ${interp.version}, ${interp.executable})`;
}

/** One line per compared mode: how many programs ran as under python3 in it, were documented, differed. */
export function modeLines(results: ProgramResult[], interp: Interpreter): string[] {
  const compared = results.flatMap((r) => (r.status === "compared" ? r.modes : []));
  const modes = [...new Set(compared.map((m) => m.mode))];
  return modes.map((mode) => {
    const of = compared.filter((m) => m.mode === mode);
    const identical = of.filter((m) => m.differences.length === 0).length;
    const documented = of.filter((m) => m.differences.length > 0 && m.documented).length;
    const differ = of.length - identical - documented;
    return `mode       ${interp.version} ${mode}: ${identical} identical, ${documented} documented, ${differ} differ`;
  });
}

function describe(difference: Difference): string {
  switch (difference.kind) {
    case "timeout":
      return `timed out after ${difference.seconds} s`;
    case "line": {
      const [ours, theirs] = excerpts(difference.ours, difference.theirs);
      return `first differing line: ${difference.stream}:${difference.line}: ${ours} | ${theirs}`;
    }
    case "exit":
      return `exit status ${difference.ours} | ${difference.theirs}`;
    case "files": {
      const parts = [];
      if (difference.extra.length) parts.push(`left behind: ${difference.extra.join(", ")}`);
      if (difference.missing.length) parts.push(`not left (python3 left it): ${difference.missing.join(", ")}`);
      return parts.join("; ");
    }
  }
}

/** Both lines, control characters escaped, long lines cut to the same window around their first difference. */
function excerpts(ours: string | null, theirs: string | null): [string, string] {
  const a = ours ?? "";
  const b = theirs ?? "";
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const start = Math.max(a.length, b.length) <= WIDTH / 2 ? 0 : Math.max(0, at - 20);
  const cut = (line: string | null) => (line === null ? "<end of output>" : window(line, start));
  return [cut(ours), cut(theirs)];
}

function window(line: string, start: number): string {
  const end = start + WIDTH / 2;
  const text = line.slice(start, end).replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `${start > 0 ? "…" : ""}${text}${end < line.length ? "…" : ""}`;
}
