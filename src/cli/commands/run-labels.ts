// How `aiython runs`, `resume` and `recheck` name a recorded run (SPEC §11): what kind of run it
// was, how it ended, its command line as a shell would take it, and local times.

import type { RunSummary } from "../../journal/index.js";

/** "tickets.py", "tickets.py (replay of 3)", "tickets.py (resume of 3)"… */
export function runLabel(run: RunSummary): string {
  const source = run.mode === "resume" ? run.resumed_from : run.source_run;
  const from = source === null ? "" : ` of ${source}`;
  switch (run.mode) {
    case "record":
      return run.script;
    case "fill":
      return `${run.script} (replay${from}, filled)`;
    default:
      return `${run.script} (${run.mode}${from})`;
  }
}

export function exitLabel(run: RunSummary): string {
  if (run.exitSignal) return run.exitSignal;
  if (run.exitStatus !== null) return String(run.exitStatus);
  return run.endedAt ? "?" : "-";
}

/** The words of a command line as one line a POSIX shell reads back as the same words. */
export function commandLine(argv: readonly string[]): string {
  return ["aiython", ...argv].map(shellWord).join(" ");
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** "2025-11-29 10:14:02" in the local time zone. */
export function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
