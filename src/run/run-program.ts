// Composition root for running a program: target → interpreter → configuration → bridge →
// (frontend when the source does not compile) → pauses → exit. Wiring only; each concern lives
// in its own module. The bridge is spawned first so that the interpreter starts while the
// configuration is read.

import os from "node:os";
import { ConfigError, ExitStatus, InternalError } from "../errors.js";
import { loadConfig, profileFor, type ResolvedConfig } from "../config/index.js";
import { BridgeProcess, type BridgeEnd } from "../recovery/bridge/bridge-process.js";
import { startBridge } from "../recovery/bridge/start-bridge.js";
import type { InvocationRunner, PauseCoordinator } from "../recovery/bridge/pause-coordinator.js";
import type { BridgeMessage, HostMessage, RunTarget } from "../recovery/bridge/protocol.js";
import { relaySignals } from "../recovery/bridge/signal-relay.js";
import { QUIET_SIGNALS } from "../defaults.js";
import { pythonStyleArgv } from "../cli/split-argv.js";
import { resolveTarget, type ProgramSpec } from "./target.js";
import { RunClock } from "../observe/run-clock.js";
import type { Observers } from "./observers.js";

export { BRIDGE_DIR } from "../recovery/bridge/start-bridge.js";

export interface RunCommand {
  program: ProgramSpec;
  programArgs: string[];
  python?: string;
  inspect: boolean;
  configFile?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  env: NodeJS.ProcessEnv;
  /** SPEC §11: --stats[=json], --trace FILE, --replay, --no-journal (journal: false). */
  stats?: false | "text" | "json";
  traceFile?: string | null;
  replay?: boolean;
  journal?: boolean;
}

export type RunOutcome =
  | { kind: "status"; status: number; message?: string }
  | { kind: "signal"; signal: NodeJS.Signals; message?: string };

export async function runProgram(command: RunCommand, started?: BridgeProcess): Promise<RunOutcome> {
  const bridge = started ?? startBridge(command.python, command.inspect, command.env);
  let target: RunTarget;
  try {
    target = resolveTarget(command.program);
  } catch (error) {
    bridge.kill("SIGKILL");
    throw error;
  }
  let problem: RunOutcome | null = null;
  let planImports = false;
  let coordinator: PauseCoordinator | null = null;
  let observers: Observers | null = null;
  const clock = new RunClock();
  bridge.handlers = {
    onMessage: (message: BridgeMessage) => {
      if (coordinator?.handle(message)) return;
      if (message.type === "plan" && planImports) {
        void planImportedModule(bridge, message);
        return;
      }
      problem ??= internal(`unexpected ${message.type} message from the bridge`);
      bridge.kill("SIGKILL");
    },
  };
  const relay = relaySignals(bridge);
  const stop = async (outcome: RunOutcome) => {
    problem ??= outcome;
    bridge.kill("SIGKILL");
  };
  try {
    let config: ResolvedConfig;
    try {
      config = await loadConfig({
        scriptPath: target.kind === "file" || target.kind === "directory" ? target.path : null,
        cwd: process.cwd(),
        configFile: command.configFile,
        profile: command.profile,
        forceProfile: command.forceProfile,
        model: command.model,
        env: command.env,
      });
      // Stats, trace and journal (SPEC §11); loaded only when asked for or when a model is configured.
      if (command.stats || command.traceFile || command.replay || config.modelConfigured) {
        const { startObservers, scriptLabel } = await import("./observers.js");
        observers = await startObservers({
          config, stats: command.stats ?? false, traceFile: command.traceFile ?? null, replay: command.replay ?? false,
          journal: command.journal ?? true, script: scriptLabel(command.program), args: command.programArgs, env: command.env,
        });
      }
    } catch (error) {
      await stop({ kind: "status", status: ExitStatus.config });
      await bridge.ended;
      throw error;
    }
    const profile = config.modelConfigured ? profileFor(config, null) : null;
    planImports = config.modelConfigured;
    if (config.modelConfigured) {
      const { PauseCoordinator } = await import("../recovery/bridge/pause-coordinator.js");
      // The orchestrator (ajv) and the model client (openai) load at the first pause: a run with
      // a model configured that never reaches a block or a failure never pays for them.
      let wired: Promise<InvocationRunner> | null = null;
      const runner: InvocationRunner = async (context) => {
        wired ??= Promise.all([import("./invocation-runner.js"), import("../observe/spinner.js")]).then(
          ([{ makeInvocationRunner }, { Spinner }]) => makeInvocationRunner(config, { spinner: new Spinner(), ...observers?.wiring }),
        );
        return (await wired)(context);
      };
      coordinator = new PauseCoordinator((m) => bridge.send(m), runner, (error) => {
        void stop(internal((error as Error).message));
      });
    }
    const runMessage: Omit<Extract<HostMessage, { type: "run" }>, "id"> = {
      type: "run",
      target,
      argv: command.programArgs,
      orig_argv: pythonStyleArgv(command.program, command.programArgs),
      options: {
        model_configured: config.modelConfigured,
        inspect: command.inspect,
        project_root: config.projectRoot,
        context_values: profile?.contextValues ?? true,
        plan_always: config.modelConfigured,
      },
    };
    const first = bridge.request(runMessage);
    try {
      await bridge.hello;
      clock.programStarted();
    } catch (error) {
      bridge.kill("SIGKILL");
      await bridge.ended;
      throw error;
    }
    void first.then(async (result) => {
      if (result.ok || result.error.type !== "needs_plan") return;
      try {
        const parsed = clock.parsing();
        const { planProgram } = await import("./plan-source.js");
        const planned = await planProgram(bridge, {
          source: String(result.error.source),
          filename: String(result.error.filename),
          shownAs: target.kind === "file" ? target.path : String(result.error.filename),
        }, { checkpoints: config.modelConfigured });
        parsed();
        if (planned.kind === "diagnostics") {
          await stop({ kind: "status", status: ExitStatus.config, message: planned.message });
          return;
        }
        bridge.send({ ...runMessage, id: "h-planned", plan: planned.plan });
      } catch (error) {
        await stop(error instanceof ConfigError ? { kind: "status", status: error.exitStatus, message: error.message } : internal((error as Error).message));
      }
    });
    const end = await bridge.ended;
    clock.programEnded();
    coordinator?.cancelAll();
    await coordinator?.settled();
    const outcome = problem ?? outcomeOf(end, relay.relayed);
    await observers?.finish(
      { status: outcome.kind === "status" ? outcome.status : null, signal: outcome.kind === "signal" ? outcome.signal : null },
      clock.timings(),
    );
    return outcome;
  } finally {
    relay.dispose();
  }
}

/** A project module imported by the program (SPEC §4.1): blocks and nested checkpoints. */
async function planImportedModule(bridge: BridgeProcess, message: Extract<BridgeMessage, { type: "plan" }>): Promise<void> {
  try {
    const { planProgram } = await import("./plan-source.js");
    const planned = await planProgram(bridge, { source: message.source, filename: message.path, shownAs: message.path }, { checkpoints: true, entryModule: false });
    if (planned.kind === "diagnostics") {
      bridge.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: planned.message } });
    } else {
      bridge.send({ type: "result", id: message.id, ok: true, value: planned.plan });
    }
  } catch (error) {
    bridge.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: (error as Error).message } });
  }
}

function internal(message: string): RunOutcome {
  return { kind: "status", status: ExitStatus.internal, message: new InternalError(message).message };
}

function outcomeOf(end: BridgeEnd, relayed: NodeJS.Signals | null): RunOutcome {
  if (end.fatal) return internal(end.fatal.message);
  if (end.protocolError) return { kind: "status", status: ExitStatus.internal, message: end.protocolError.message };
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
