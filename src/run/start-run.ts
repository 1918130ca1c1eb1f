// Runs one program (SPEC §2, §4): the interpreter (started first, so that Python's start-up
// overlaps with reading the configuration), the target, then a ProgramRun that wires the rest.
// Wiring only; each concern lives in its own module.

import type { RunOutcome } from "../errors.js";
import type { BridgeProcess } from "../bridge/bridge-process.js";
import type { RunTarget } from "../bridge/protocol.js";
import { startBridge } from "../bridge/start-bridge.js";
import { ProgramRun } from "./program-run.js";
import type { RunCommand } from "./run-command.js";
import { resolveTarget } from "./target.js";

/** Starts the interpreter (unless bin/aiython's first file already has), resolves the target and runs it. */
export async function startRun(command: RunCommand, started?: BridgeProcess): Promise<RunOutcome> {
  const quiet = command.quiet ? { stdin: "ignore" as const, output: "ignore" as const } : {};
  const bridge = started ?? startBridge(command.python, command.env, { interpreterArgs: command.interpreter.args, ignoredSignals: command.ignoredSignals, ...quiet });
  let target: RunTarget;
  try {
    target = resolveTarget(command.program);
  } catch (error) {
    bridge.kill("SIGKILL");
    throw error;
  }
  return new ProgramRun(command, bridge, target).execute();
}
