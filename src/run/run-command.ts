// What the CLI asks of one program run: the program, its arguments, the interpreter and its
// options, and the run's flags (SPEC §2, §9, §11, §13); for `aiython resume` and `aiython
// recheck` (§11.2, §11.3), which run a recorded command line again, what kind of run it is.
// src/cli/ makes it; start-run.ts starts it.

import type { InterpreterOptions, ProgramSpec } from "./target.js";

/** `--replay[=RUN_ID][,fill]` (SPEC §11.1): the source run (null: the latest of the same command line); `fill` sends what it lacks. */
export interface ReplayChoice {
  run: number | null;
  fill: boolean;
}

/** `--batch[=fallback-live|dir:PATH]` (SPEC §14): failed lines live instead of in the next batch; the folder of `dir:` as given (relative to the run's folder), else null. */
export interface BatchChoice {
  fallbackLive: boolean;
  dir: string | null;
}

/** The first request a recheck's recording could not answer (SPEC §11.3): its block ("file:line", project-relative) and what differs. */
export interface ReplayMiss {
  block: string | null;
  summary: string;
}

/** A run of a recorded command line again: a resume of run `from` (SPEC §11.2), or a recheck of it (§11.3). */
export type Rerun = { kind: "resume"; from: number } | { kind: "recheck"; from: number; missed(miss: ReplayMiss): void };

export interface RunCommand {
  program: ProgramSpec;
  programArgs: string[];
  python?: string;
  interpreter: InterpreterOptions;
  /** python3's sys.orig_argv[1:] for this command line (src/cli/split-argv.ts). */
  origArgv: string[];
  /** Signal numbers the host inherited as ignored (src/cli/inherited-signals.ts). */
  ignoredSignals: readonly number[];
  configFile?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  env: NodeJS.ProcessEnv;
  /** SPEC §11: --stats[=json], --trace FILE, --replay[=RUN_ID][,fill], --no-journal (journal: false). */
  stats?: false | "text" | "json";
  traceFile?: string | null;
  replay?: ReplayChoice | null;
  /** SPEC §14: --batch; null or absent: as `[batch] enabled` says. */
  batch?: BatchChoice | null;
  journal?: boolean;
  /** aiython's whole command line after its name, as given: the journal keeps it (keys redacted) for `aiython resume`. */
  argv?: readonly string[];
  rerun?: Rerun;
  /** The program gets no terminal: stdin is empty and its output goes nowhere (`aiython recheck`). */
  quiet?: boolean;
  /** SPEC §13: --budget-calls, --budget-tokens, --budget-cost (each overrides config `budget`). */
  budget?: { modelCalls?: number; tokens?: number; costUsd?: number };
  /** SPEC §9: --approve, --time-limit SECONDS, --memory-limit MB (the flags win over the config keys). */
  approve?: boolean;
  timeLimit?: number;
  memoryLimit?: number;
}
