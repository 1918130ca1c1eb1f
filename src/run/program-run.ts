// One program run, from the configuration to the exit (SPEC §2, §4): load the configuration and
// the observers (§11), send `run`, answer the bridge's `plan` requests (plan-answers.ts: the entry program and
// imported project modules, §4.1) and hand pauses to the coordinator (§4.3, §4.2), then turn how
// the interpreter ended into a RunOutcome. A fault found on the way (a malformed directive, a
// protocol violation, a bug) ends the run by killing the interpreter and is reported instead of
// the program's exit.

import { loadConfig, type ResolvedConfig } from "../config/index.js";
import { ExitStatus, type RunOutcome } from "../errors.js";
import { KILL_GRACE_MS } from "../defaults.js";
import { RunClock } from "../observe/run-clock.js";
import type { BridgeEnd, BridgeProcess } from "../bridge/bridge-process.js";
import type { ChildLink } from "../bridge/child-link.js";
import type { PauseCoordinator } from "../invocation/pause-coordinator.js";
import type { BridgeMessage, HostMessage, MailRequest, RunOptions, RunRequest, RunTarget } from "../bridge/protocol.js";
import { relaySignals, type SignalRelay } from "../bridge/signal-relay.js";
import { ChildProcesses } from "./child-processes.js";
import type { PlanLink } from "./plan-source.js";
import type { Observers } from "./observers.js";
import { RunMailbox } from "./mailbox-wiring.js";
import type { RunCommand } from "./run-command.js";
import { scriptPathOf } from "./target.js";
import { runLimits, timeLimitMessage, type RunLimits } from "./run-limits.js";
import { TimeLimit } from "./time-limit.js";
import { endedInTool, internalOutcome, outcomeOf, runOptions } from "./run-messages.js";
import { PlanAnswers } from "./plan-answers.js";
import type { EndedHow } from "../journal/index.js";
import type { RunBatch } from "./batch-wiring.js";

/** Exit status of a run that stopped to wait for batch results (SPEC §2, §14). */
const BATCH_WAIT_STATUS = 76;

/** Exit status of a run ended by its time limit (SPEC §2). */
const TIME_LIMIT_STATUS = 124;

export class ProgramRun {
  private problem: RunOutcome | null = null;
  /** How the run was cut short, when it was (SPEC §11.2): the journal keeps it with the run's end. */
  private cutShort: EndedHow | null = null;
  private coordinator: PauseCoordinator | null = null;
  /** Loads the model client and the orchestrator in the background (after a plan with blocks). */
  private warmUp: (() => void) | null = null;
  /** With a model configured: a coordinator of the run's one invocation runner for a process's link. */
  private coordinatorFor: ((send: (message: HostMessage) => void) => PauseCoordinator) | null = null;
  private readonly coordinators = new Set<PauseCoordinator>();
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
      warmUp: () => this.warmUp?.(),
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
      const { pauseCoordinator, sharedInvocationRunner } = await import("./pause-wiring.js");
      const hold = this.timeLimit ? () => this.timeLimit!.hold() : undefined;
      const shared = sharedInvocationRunner(config, this.observers, {
        mailboxFor: (member) => this.mailbox.portFor(member),
        holdClock: hold,
        approve: command.approve ?? false,
        batch: await this.batchOf(config),
      });
      this.warmUp = shared.warmUp;
      this.coordinatorFor = (send) => {
        const coordinator = pauseCoordinator(
          shared.runner,
          send,
          (error) => this.stop(internalOutcome((error as Error).message)),
          (message) => this.stop({ kind: "status", status: ExitStatus.uncaughtException, message }),
        );
        this.coordinators.add(coordinator);
        return coordinator;
      };
      this.coordinator = this.coordinatorFor((message) => this.bridge.send(message));
    }
    return config;
  }

  /** SPEC §14: the run's batch offload, when it batches; a batch waiting in a folder stops the run (exit 76, resumable). */
  private async batchOf(config: ResolvedConfig): Promise<RunBatch | undefined> {
    if (this.command.batch == null && !config.profiles.get(config.forcedProfile ?? config.defaultProfile)?.batch.enabled) return undefined;
    const { runBatch } = await import("./batch-wiring.js");
    this.batch = runBatch(this.command, config, this.observers?.session ?? null, (message, status) => {
      if (status === BATCH_WAIT_STATUS) this.cutShort ??= "batch_wait";
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
    this.problem ??= { kind: "status", status: TIME_LIMIT_STATUS, message: timeLimitMessage(limit) };
    const tree = this.bridge.tree();
    if (!tree) return;
    tree.signal("SIGTERM");
    this.ending = (async () => {
      const until = Date.now() + KILL_GRACE_MS;
      while (tree.alive() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      tree.signal("SIGKILL");
    })();
  }

  private onMessage(message: BridgeMessage): void {
    if (message.type === "pause" && message.modules) this.observers?.sourceFiles(message.modules);
    if (this.coordinator?.handle(message)) return;
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
        this.warmUp?.(); // a prepared source with blocks, from the cache: no plan said so
        return true;
      default:
        return false;
    }
  }

  /** A child process of the run (SPEC §8): its own pauses on the run's one invocation runner. */
  private serveChild(link: ChildLink): { ended(): void } {
    const coordinator = this.coordinatorFor?.((message) => link.send(message)) ?? null;
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
    const inTool = this.coordinator?.bridgeEnded() ?? null;
    this.mailbox.close();
    await this.children.close();
    await Promise.all([...this.coordinators].map((coordinator) => coordinator.settled()));
    const outcome = this.problem ?? this.budgetOutcome(end) ?? this.plans.refusedOutcome(end.code) ?? endedInTool(inTool, end, relayed) ?? outcomeOf(end, relayed);
    const exit = { status: outcome.kind === "status" ? outcome.status : null, signal: outcome.kind === "signal" ? outcome.signal : null };
    await this.observers?.finish({ ...exit, how: this.endedHow(outcome, end) }, this.clock.timings());
    return outcome;
  }

  /** Whether the program ended the run itself (its exit status, uncaught exceptions included), or how it was cut short. */
  private endedHow(outcome: RunOutcome, end: BridgeEnd): EndedHow {
    if (this.cutShort) return this.cutShort;
    if (outcome.kind === "signal") return "signal";
    if (end.fatal || end.protocolError || (this.problem?.kind === "status" && this.problem.status === ExitStatus.internal)) return "internal";
    if (this.problem === null && this.budgetOutcome(end)) return "budget";
    if (end.signal) return "lost"; // the interpreter died of a signal nobody relayed to it
    return "exit";
  }

  /** The program ended with an uncaught AIBudgetError: exit 75 and what was spent (SPEC §13). */
  private budgetOutcome(end: BridgeEnd): RunOutcome | null {
    if (!end.budgetExhausted || end.code !== ExitStatus.uncaughtException || !this.observers) return null;
    return { kind: "status", status: ExitStatus.budget, message: this.observers.budget.summary() };
  }
}
