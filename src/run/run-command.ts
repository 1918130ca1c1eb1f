// What the CLI asks of one program run: the program, its arguments, the interpreter and its
// options, and the run's flags (SPEC §2, §9, §11, §13). src/cli/options.ts makes it;
// start-run.ts starts it.

import type { InterpreterOptions, ProgramSpec } from "./target.js";

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
  /** SPEC §11: --stats[=json], --trace FILE, --replay[=fill], --no-journal (journal: false). */
  stats?: false | "text" | "json";
  traceFile?: string | null;
  replay?: false | "strict" | "fill";
  journal?: boolean;
  /** SPEC §13: --budget-calls, --budget-tokens, --budget-cost (each overrides config `budget`). */
  budget?: { modelCalls?: number; tokens?: number; costUsd?: number };
  /** SPEC §9: --approve, --time-limit SECONDS, --memory-limit MB (the flags win over the config keys). */
  approve?: boolean;
  timeLimit?: number;
  memoryLimit?: number;
}
