// Composition root for running a program: target → interpreter → bridge → (frontend when the
// source does not compile) → exit. Wiring only; each concern lives in its own module.

import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ExitStatus, InternalError } from "./errors.js";
import { BridgeProcess, type BridgeEnd } from "./recovery/bridge-process.js";
import { chooseInterpreter } from "./recovery/interpreter.js";
import type { RunTarget } from "./recovery/protocol.js";
import { relaySignals } from "./recovery/signal-relay.js";
import { QUIET_SIGNALS } from "./defaults.js";
import { pythonStyleArgv } from "./cli-args.js";
import { resolveTarget, type ProgramSpec } from "./target.js";

/** bridge-py/ sits next to both src/ (development) and dist/ (the built CLI). */
export const BRIDGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "bridge-py");

export interface RunCommand {
  program: ProgramSpec;
  programArgs: string[];
  python?: string;
  inspect: boolean;
  env: NodeJS.ProcessEnv;
}

export type RunOutcome =
  | { kind: "status"; status: number; message?: string }
  | { kind: "signal"; signal: NodeJS.Signals; message?: string };

export async function runProgram(command: RunCommand): Promise<RunOutcome> {
  const target = resolveTarget(command.program);
  const choice = chooseInterpreter(command.python, command.env);
  const modelConfigured = Boolean(command.env.AIYTHON_MODEL);
  let violation: string | null = null;
  const bridge = new BridgeProcess(choice, BRIDGE_DIR, {
    env: command.env,
    inspect: command.inspect,
    handlers: {
      onMessage: (message) => {
        // Pauses arrive only once AI blocks can run; until then one is a protocol violation.
        violation ??= `unexpected ${message.type} message from the bridge`;
        bridge.kill("SIGKILL");
      },
    },
  });
  const relay = relaySignals(bridge);
  try {
    const runMessage = {
      type: "run" as const,
      target,
      argv: command.programArgs,
      orig_argv: pythonStyleArgv(command.program, command.programArgs),
      options: { model_configured: modelConfigured, inspect: command.inspect },
    };
    const first = bridge.request(runMessage);
    try {
      await bridge.hello;
    } catch (error) {
      bridge.kill("SIGKILL");
      await bridge.ended;
      throw error;
    }
    void first.then((result) => {
      if (result.ok || result.error.type !== "needs_plan") return;
      // No AI blocks can be planned yet: run the unchanged source so CPython reports it.
      bridge.send({ ...runMessage, id: "h-plan", plan: { rewritten: null, blocks: [], checkpoints: [], runtimeName: "" } });
    });
    const end = await bridge.ended;
    if (violation) throw new InternalError(violation);
    return outcomeOf(end, target, relay.relayed);
  } finally {
    relay.dispose();
  }
}

function outcomeOf(end: BridgeEnd, _target: RunTarget, relayed: NodeJS.Signals | null): RunOutcome {
  if (end.fatal) {
    return { kind: "status", status: ExitStatus.internal, message: `internal error: ${end.fatal.message}` };
  }
  if (end.protocolError) {
    return { kind: "status", status: ExitStatus.internal, message: end.protocolError.message };
  }
  if (end.signal) {
    if (relayed) return { kind: "signal", signal: relayed };
    if (QUIET_SIGNALS.has(end.signal)) return { kind: "signal", signal: end.signal };
    const number = signalNumber(end.signal);
    return { kind: "status", status: 128 + number, message: `the Python process ended unexpectedly (signal ${number})` };
  }
  return { kind: "status", status: end.code ?? ExitStatus.internal };
}

export function signalNumber(signal: NodeJS.Signals): number {
  return os.constants.signals[signal] ?? 0;
}
