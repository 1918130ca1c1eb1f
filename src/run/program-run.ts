// One program run, from the configuration to the exit (SPEC §2, §4): load the configuration and
// the observers (§11), send `run`, answer the bridge's `plan` requests (the entry program and
// imported project modules, §4.1) and hand pauses to the coordinator (§4.3, §4.2), then turn how
// the interpreter ended into a RunOutcome. A fault found on the way (a malformed directive, a
// protocol violation, a bug) ends the run by killing the interpreter and is reported instead of
// the program's exit.

import os from "node:os";
import { loadConfig, profileFor, type ResolvedConfig } from "../config/index.js";
import { ConfigError, ExitStatus, InternalError, type RunOutcome } from "../errors.js";
import { QUIET_SIGNALS } from "../defaults.js";
import { RunClock } from "../observe/run-clock.js";
import type { BridgeEnd, BridgeProcess } from "../recovery/bridge/bridge-process.js";
import type { PauseCoordinator } from "../recovery/bridge/pause-coordinator.js";
import type { BridgeMessage, PlanRequest, RunRequest, RunTarget } from "../recovery/bridge/protocol.js";
import { relaySignals } from "../recovery/bridge/signal-relay.js";
import type { Observers } from "./observers.js";
import type { RunCommand } from "./run-program.js";
import { pythonStyleArgv, scriptPathOf } from "./target.js";

export class ProgramRun {
  private problem: RunOutcome | null = null;
  private coordinator: PauseCoordinator | null = null;
  private observers: Observers | null = null;
  private config: ResolvedConfig | null = null;
  private readonly clock = new RunClock();

  constructor(
    private readonly command: RunCommand,
    private readonly bridge: BridgeProcess,
    private readonly target: RunTarget,
  ) {}

  async execute(): Promise<RunOutcome> {
    this.bridge.handlers = { onMessage: (message) => this.onMessage(message) };
    const relay = relaySignals(this.bridge);
    try {
      const config = await this.setUp();
      this.bridge.send(this.runRequest(config));
      await this.programStarted();
      return await this.finish(await this.bridge.ended, relay.relayed);
    } finally {
      relay.dispose();
    }
  }

  /** Configuration, observers and the pause coordinator; a configuration error ends the run here. */
  private async setUp(): Promise<ResolvedConfig> {
    const { command } = this;
    let config: ResolvedConfig;
    try {
      config = this.config = await loadConfig({
        scriptPath: scriptPathOf(this.target), cwd: process.cwd(), configFile: command.configFile,
        profile: command.profile, forceProfile: command.forceProfile, model: command.model, env: command.env,
      });
      // Stats, trace and journal (SPEC §11); loaded only when asked for or when a model is configured.
      if (command.stats || command.traceFile || command.replay || config.modelConfigured) {
        const { startObservers } = await import("./observers.js");
        this.observers = await startObservers({ config, command });
      }
    } catch (error) {
      this.stop({ kind: "status", status: ExitStatus.config });
      await this.bridge.ended;
      throw error;
    }
    if (config.modelConfigured) {
      const { pauseCoordinator } = await import("./pause-wiring.js");
      this.coordinator = pauseCoordinator(config, this.observers, this.bridge, (error) => this.stop(internal((error as Error).message)));
    }
    return config;
  }

  private runRequest(config: ResolvedConfig): RunRequest {
    const { command } = this;
    const profile = config.modelConfigured ? profileFor(config, null) : null;
    return {
      type: "run",
      target: this.target,
      argv: command.programArgs,
      orig_argv: pythonStyleArgv(command.program, command.programArgs),
      options: {
        model_configured: config.modelConfigured,
        inspect: command.inspect,
        project_root: config.projectRoot,
        context_values: profile?.contextValues ?? true,
      },
    };
  }

  /** Waits for the interpreter's hello; an unusable interpreter ends the run here. */
  private async programStarted(): Promise<void> {
    try {
      await this.bridge.hello;
    } catch (error) {
      this.bridge.kill("SIGKILL");
      await this.bridge.ended;
      throw error;
    }
    this.clock.programStarted();
  }

  private onMessage(message: BridgeMessage): void {
    if (this.coordinator?.handle(message)) return;
    if (message.type === "plan") {
      void this.answerPlan(message);
      return;
    }
    this.stop(internal(`unexpected ${message.type} message from the bridge`));
  }

  /** Plans a source for the bridge; for the entry program, diagnostics end the run (exit 78). */
  private async answerPlan(message: PlanRequest): Promise<void> {
    const parsed = this.clock.parsing();
    let fault: RunOutcome | null = null;
    try {
      const { planRequested } = await import("./plan-source.js");
      const shownAs = message.entry && !message.interactive && this.target.kind === "file" ? this.target.path : message.path;
      const planned = await planRequested(this.bridge, message, { checkpoints: this.config?.modelConfigured ?? false, shownAs });
      if (planned.kind === "diagnostics") {
        this.bridge.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: planned.message } });
        fault = { kind: "status", status: ExitStatus.config, message: planned.message };
      } else {
        this.bridge.send({ type: "result", id: message.id, ok: true, value: planned.plan });
      }
    } catch (error) {
      this.bridge.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: (error as Error).message } });
      fault = error instanceof ConfigError ? { kind: "status", status: error.exitStatus, message: error.message } : internal((error as Error).message);
    } finally {
      parsed();
    }
    if (fault && message.entry && !message.interactive) this.stop(fault); // the console shows it and goes on
  }

  private stop(outcome: RunOutcome): void {
    this.problem ??= outcome;
    this.bridge.kill("SIGKILL");
  }

  private async finish(end: BridgeEnd, relayed: NodeJS.Signals | null): Promise<RunOutcome> {
    this.clock.programEnded();
    this.coordinator?.cancelAll();
    await this.coordinator?.settled();
    const outcome = this.problem ?? outcomeOf(end, relayed);
    await this.observers?.finish(
      { status: outcome.kind === "status" ? outcome.status : null, signal: outcome.kind === "signal" ? outcome.signal : null },
      this.clock.timings(),
    );
    return outcome;
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

function signalNumber(signal: NodeJS.Signals): number {
  return os.constants.signals[signal] ?? 0;
}
