// Running a program (SPEC §2): `aiython [OPTIONS] SCRIPT|-m MODULE|-c CODE|- [ARGS...]`, and
// the interactive console (a run of its own, in the bridge) when there is no program and stdin
// is a terminal. `commandFrom` is also how `aiython resume` and `recheck` read a recorded command
// line (recorded-command.ts).

import tty from "node:tty";
import type { RunOutcome } from "../../errors.js";
import { protectHostStdio } from "../host-stdio.js";
import type { BridgeProcess } from "../../bridge/bridge-process.js";
import type { RunCommand } from "../../run/run-command.js";
import type { CliOptions } from "../options.js";
import type { SplitArgs } from "../split-argv.js";
import { budgetOf } from "../budget-options.js";
import { replayChoice } from "../replay-option.js";
import { batchChoice } from "../batch-option.js";

export async function runCommand(split: SplitArgs, options: CliOptions, early: BridgeProcess | undefined, ignoredSignals: readonly number[]): Promise<RunOutcome> {
  protectHostStdio(); // before anything can open a handle on the program's fds
  const { startRun } = await import("../../run/start-run.js");
  return startRun(commandFrom(split, options, ignoredSignals), early);
}

/** What the command line asks of a run. */
export function commandFrom(split: SplitArgs, options: CliOptions, ignoredSignals: readonly number[]): RunCommand {
  // A program piped in without `-` is named "" (sys.argv[0]), as python3 names it.
  const program = split.program ?? (tty.isatty(0) ? { kind: "console" as const } : { kind: "stdin" as const, unnamed: true as const });
  return {
    program,
    programArgs: split.programArgs,
    python: options.python,
    interpreter: split.interpreter,
    origArgv: split.origArgv,
    ignoredSignals,
    configFile: options.config,
    profile: options.profile,
    forceProfile: options.forceProfile,
    model: options.model,
    env: process.env,
    stats: options.stats === undefined ? false : options.stats === "json" ? "json" : "text",
    traceFile: options.trace ?? null,
    replay: replayChoice(options.replay),
    batch: batchChoice(options.batch),
    journal: options.journal !== false,
    argv: split.argv,
    budget: budgetOf(options),
    approve: Boolean(options.approve),
    timeLimit: options.timeLimit,
    memoryLimit: options.memoryLimit,
  };
}
