// One program run, from the configuration to the exit (SPEC §2, §4): load the configuration and
// the observers (§11), send `run`, answer the bridge's `plan` requests (plan-answers.ts: the entry program and
// imported project modules, §4.1) and hand pauses to the coordinators (pause-wiring.ts, §4.3, §4.2), then turn how
// the interpreter ended into a RunOutcome. A fault found on the way (a malformed directive, a
// protocol violation, a bug) ends the run by killing the interpreter and is reported instead of
// the program's exit.

import { loadConfig, type ResolvedConfig } from "../config/index.js";
import { ExitStatus, type RunOutcome } from "../errors.js";
import { KILL_GRACE_MS } from "../defaults.js";
import { RunClock } from "../observe/run-clock.js";
import type { BridgeEnd, BridgeProcess } from "../bridge/bridge-process.js";
import type { ChildLink } from "../bridge/child-link.js";
import type { BridgeMessage, MailRequest, RunOptions, RunRequest, RunTarget } from "../bridge/protocol.js";
import { relaySignals, type SignalRelay } from "../bridge/signal-relay.js";
import { ChildProcesses } from "./child-processes.js";
import type { PlanLink } from "./plan-source.js";
import type { Observers } from "./observers.js";
import { RunMailbox } from "./mailbox-wiring.js";
import type { RunCommand } from "./run-command.js";
import { scriptPathOf } from "./target.js";
import { runLimits, timeLimitMessage, type RunLimits } from "./run-limits.js";
import { TimeLimit } from "./time-limit.js";
import { budgetOutcome, endedHow, endedInTool, internalOutcome, outcomeOf, runOptions } from "./run-messages.js";
import { PlanAnswers } from "./plan-answers.js";
import type { EndedHow } from "../journal/index.js";
import type { RunBatch } from "./batch-wiring.js";
import type { RunPauses } from "./pause-wiring.js";

export class ProgramRun {
  private problem: RunOutcome | null = null;
  /** How the run was cut short, when it was (SPEC §11.2): the journal keeps it with the run's end. */
  private cutShort: EndedHow | null = null;
  /** With a model configured: the run's pause coordinators (pause-wiring.ts). */
  private pauses: RunPauses | null = null;
  private observers: Observers | null = null;
  private config: ResolvedConfig | null = null;
  private options: RunOptions | null = null;
  private readonly clock = new RunClock();
  private limits: RunLimits = { time: null, memory: null };
  private timeLimit: TimeLimit | null = null;
  /** The time limit's end of the program and what it started, once under way (SPEC §9). */
  private ending: Promise<void> | null = null;
  private readonly mailbox = new RunMailbox();
  private readonly children = new ChildProcesses(() => this.options, { handle: (link) => this.serveChild(link) });
  private relay: SignalRelay | null = null;
  private readonly plans: PlanAnswers;
  private batch: RunBatch | undefined;

  constructor(
    private readonly command: RunCommand,
    private readonly bridge: BridgeProcess,
    private readonly target: RunTarget,
  ) {
    this.plans = new PlanAnswers({
      target,
      clock: this.clock,
      config: () => this.config,
      warmUp: () => this.pauses?.warmUp(),
      interrupted: () => this.relay?.interrupted ?? false,
      stop: (outcome) => this.stop(outcome),
    });
  }

  async execute(): Promise<RunOutcome> {
    this.bridge.handlers = { onMessage: (message) => this.onMessage(message) };
    const relay = (this.relay = relaySignals(this.bridge, { ignored: this.command.ignoredSignals }));
    try {
      const config = await this.setUp();
      this.bridge.send(this.runRequest(config));
      await this.programStarted(relay);
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
        scriptPath: scriptPathOf(this.target),
        cwd: process.cwd(),
        configFile: command.configFile,
        profile: command.profile,
        forceProfile: command.forceProfile,
        model: command.model,
        env: command.env,
      });
      if (config.modelConfigured) await (await import("./scripted-wiring.js")).checkScriptedRoutes(config, command);
      this.limits = runLimits(command, config, config.profiles.get(config.forcedProfile ?? config.defaultProfile));
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
    const time = this.limits.time;
    if (time) this.timeLimit = new TimeLimit(time.seconds, () => this.timeUp(time));
    if (config.modelConfigured) {
      const { RunPauses, sharedInvocationRunner } = await import("./pause-wiring.js");
      const hold = this.timeLimit ? () => this.timeLimit!.hold() : undefined;
      const shared = sharedInvocationRunner(config, this.observers, {
        mailboxFor: (member) => this.mailbox.portFor(member),
        holdClock: hold,
        approve: command.approve ?? false,
        batch: await this.batchOf(config),
      });
      this.pauses = new RunPauses(
        shared,
        (outcome) => this.stop(outcome),
        (message) => this.bridge.send(message),
      );
    }
    return config;
  }

  /** SPEC §14: the run's batch offload, when it batches; a batch waiting in a folder stops the run (exit 76, resumable). */
  private async batchOf(config: ResolvedConfig): Promise<RunBatch | undefined> {
    if (this.command.batch == null && !config.profiles.get(config.forcedProfile ?? config.defaultProfile)?.batch.enabled) return undefined;
    const { runBatch } = await import("./batch-wiring.js");
    this.batch = runBatch(this.command, config, this.observers?.session ?? null, (message, status) => {
      if (status === ExitStatus.batchWait) this.cutShort ??= "batch_wait";
      this.stop({ kind: "status", status, message });
    });
    return this.batch;
  }

  private runRequest(config: ResolvedConfig): RunRequest {
    const { command } = this;
    this.options = runOptions(command, config, this.limits);
    return { type: "run", target: this.target, argv: command.programArgs, orig_argv: command.origArgv, options: this.options };
  }

  /**
   * Waits for the interpreter's hello; an unusable interpreter ends the run here. One that exits
   * with a failure status before saying hello while it was given CPython's own options refused
   * them with its own message (python3's usage error, `Unknown option: -z`): its status is the
   * run's, as under python3. One that ended because Ctrl-C reached it while it started (it died of
   * SIGINT, or raised KeyboardInterrupt before the bridge was up) was interrupted, not unusable:
   * the run ends as by SIGINT (130), with nothing more said (SPEC §2).
   */
  private async programStarted(relay: SignalRelay): Promise<void> {
    try {
      const python = await this.bridge.hello;
      this.observers?.interpreter({ executable: python.executable, version: python.version });
    } catch (error) {
      this.bridge.kill("SIGKILL");
      const end = await this.bridge.ended;
      // A Ctrl-C that reached the interpreter reached the host too: let its listener run first
      // (a busy event loop may see the interpreter's end before the signal).
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (end.signal === "SIGINT" || relay.interrupted) {
        this.problem ??= { kind: "signal", signal: "SIGINT" };
        return;
      }
      if (this.command.interpreter.args.length === 0 || !end.code) throw error;
      this.problem ??= { kind: "status", status: end.code };
      return;
    }
    this.clock.programStarted();
    this.timeLimit?.start();
  }

  /**
   * The time limit is reached: the program and every process it started are ended as by
   * SIGTERM, then SIGKILL after the grace period (SPEC §2, §9): a worker left running would
   * hold the caller's pipes open.
   */
  private timeUp(limit: NonNullable<RunLimits["time"]>): void {
    this.cutShort ??= "time_limit";
    this.problem ??= { kind: "status", status: ExitStatus.timeLimit, message: timeLimitMessage(limit) };
    this.ending = this.bridge.tree()?.end(KILL_GRACE_MS) ?? null;
  }

  private onMessage(message: BridgeMessage): void {
    if (message.type === "pause" && message.modules) this.observers?.sourceFiles(message.modules);
    if (this.pauses?.main.handle(message)) return;
    if (this.serve(this.bridge, message, true)) return;
    this.stop(internalOutcome(`unexpected ${message.type} message from the bridge`));
  }

  /** What any process of the run may ask besides pauses: plans, the run folder, the mailbox. */
  private serve(link: PlanLink, message: BridgeMessage, first: boolean): boolean {
    switch (message.type) {
      case "plan":
        void this.plans.answer(link, message, first);
        return true;
      case "children":
        this.children.answer(link, message);
        return true;
      case "mail":
        void this.answerMail(link, message);
        return true;
      case "blocks_ahead":
        this.pauses?.warmUp(); // a prepared source with blocks, from the cache: no plan said so
        return true;
      default:
        return false;
    }
  }

  /** A child process of the run (SPEC §8): its own pauses on the run's one invocation runner. */
  private serveChild(link: ChildLink): { ended(): void } {
    const coordinator = this.pauses?.coordinatorFor((message) => link.send(message)) ?? null;
    link.onMessage = (message) => {
      if (message.type === "pause" && message.modules) this.observers?.sourceFiles(message.modules);
      if (!coordinator?.handle(message)) this.serve(link, message, false);
    };
    return { ended: () => coordinator?.bridgeEnded() };
  }

  private async answerMail(link: PlanLink, message: MailRequest): Promise<void> {
    const answer = await this.mailbox.answer(message);
    link.send({ type: "result", id: message.id, ...answer });
  }

  private stop(outcome: RunOutcome): void {
    this.problem ??= outcome;
    this.bridge.tree()?.signal("SIGKILL");
  }

  private async finish(end: BridgeEnd, relayed: NodeJS.Signals | null): Promise<RunOutcome> {
    this.clock.programEnded();
    this.timeLimit?.dispose();
    this.batch?.offload.close();
    await this.ending;
    const inTool = this.pauses?.main.bridgeEnded() ?? null;
    this.mailbox.close();
    await this.children.close();
    await this.pauses?.settled();
    const budget = this.problem === null ? budgetOutcome(end, this.observers?.budget ?? null) : null;
    const outcome = this.problem ?? budget ?? this.plans.refusedOutcome(end.code) ?? endedInTool(inTool, end, relayed) ?? outcomeOf(end, relayed);
    const exit = { status: outcome.kind === "status" ? outcome.status : null, signal: outcome.kind === "signal" ? outcome.signal : null };
    await this.observers?.finish({ ...exit, how: endedHow(outcome, end, this.cutShort, this.problem, budget !== null) }, this.clock.timings());
    return outcome;
  }
}
