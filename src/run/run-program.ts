// Runs one program (SPEC §2, §4): the interpreter (started first, so that Python's start-up
// overlaps with reading the configuration), the target, then a ProgramRun that wires the rest.
// Wiring only; each concern lives in its own module.

import type { RunOutcome } from "../errors.js";
import type { BridgeProcess } from "../bridge/bridge-process.js";
import type { RunTarget } from "../bridge/protocol.js";
import { startBridge } from "../bridge/start-bridge.js";
import { ProgramRun } from "./program-run.js";
import { resolveTarget, type InterpreterOptions, type ProgramSpec } from "./target.js";

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

export async function runProgram(command: RunCommand, started?: BridgeProcess): Promise<RunOutcome> {
  const bridge = started ?? startBridge(command.python, command.env, { interpreterArgs: command.interpreter.args, ignoredSignals: command.ignoredSignals });
  let target: RunTarget;
  try {
    target = resolveTarget(command.program);
  } catch (error) {
    bridge.kill("SIGKILL");
    throw error;
  }
  return new ProgramRun(command, bridge, target).execute();
}
