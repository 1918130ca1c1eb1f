// A recorded run's command line as a run again (SPEC §11.2, §11.3): its words read as they were
// the first time (split-argv.ts, options.ts), in its folder. A run that cannot be run again says
// why: recorded before aiython kept command lines, a program read from stdin or typed at the
// console, a key in its words (the journal keeps none), or a folder that is gone.

import fs from "node:fs";
import path from "node:path";
import { UsageError } from "../../errors.js";
import type { RunRecord } from "../../journal/index.js";
import type { RunCommand } from "../../run/run-command.js";
import { parseOptions } from "../options.js";
import { splitArgv } from "../split-argv.js";
import { commandFrom } from "./run.js";

const REDACTED = "[redacted]";

export interface RecordedCommand {
  command: RunCommand;
  /** The absolute folder it ran in. */
  cwd: string;
}

/** The run's command, or the reason it cannot be run again (a sentence about run N). */
export function recordedCommand(run: RunRecord, projectRoot: string, ignoredSignals: readonly number[]): RecordedCommand | { unusable: string } {
  const argv = run.command_line;
  if (argv === null) return { unusable: `run ${run.id} was recorded by an older aiython, which did not keep its command line` };
  if (argv.some((word) => word.includes(REDACTED))) {
    return { unusable: `run ${run.id}'s command line held a key, which the journal does not keep; run it again yourself with --replay=${run.id},fill` };
  }
  const split = splitArgv(argv);
  if (split.program === null || split.program.kind === "stdin" || split.program.kind === "console") {
    return { unusable: `run ${run.id} read its program from the terminal or stdin, which the journal does not keep` };
  }
  const cwd = run.cwd === null ? projectRoot : path.resolve(projectRoot, run.cwd);
  if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) return { unusable: `run ${run.id} ran in ${cwd}, which is no longer a folder` };
  const parsed = split.optionArgs.length > 0 ? parseOptions(split.optionArgs) : { options: {}, extra: [] };
  if (parsed === null || parsed.extra.length > 0) return { unusable: `run ${run.id}'s command line cannot be read again` };
  return { command: commandFrom(split, parsed.options, ignoredSignals), cwd };
}

/** A run by id, or a usage error naming the journal. */
export function runById(journal: { reads: { record(id: number): RunRecord | null }; file: string }, id: number): RunRecord {
  const run = journal.reads.record(id);
  if (!run) throw new UsageError(`no run ${id} in ${journal.file}; see aiython runs list`);
  return run;
}

/** A run id given on the command line. */
export function runId(text: string, usage: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) throw new UsageError(`run ids are whole numbers, not '${text}' (see aiython runs list): ${usage}`);
  return id;
}
