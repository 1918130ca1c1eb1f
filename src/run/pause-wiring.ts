// Pauses of a run with a model configured (SPEC §4.2, §4.3): one invocation runner for the
// whole run — every process of it (SPEC §8) shares its model clients, its max_concurrency, its
// journal and stats — and a PauseCoordinator per process on that process's link. The
// orchestrator, the model client (openai) and the spinner load at the first pause, or earlier
// when the run warms them up (program-run.ts: once a plan with AI blocks is answered, while the
// program runs up to its first block): a run that never reaches a block or a failure never pays
// for them, and one with blocks meets its first block with them loaded. RunPauses holds the run's
// coordinators: the interpreter's, and one for each child process that joins the run.

import type { ResolvedConfig } from "../config/index.js";
import { ExitStatus, type RunOutcome } from "../errors.js";
import type { HostMessage } from "../bridge/protocol.js";
import { PauseCoordinator, type InvocationRunner } from "../invocation/pause-coordinator.js";
import type { InvocationWiring, WarmInvocationRunner } from "./invocation-runner.js";
import type { Observers } from "./observers.js";
import { internalOutcome } from "./run-messages.js";

export interface SharedRunner {
  runner: InvocationRunner;
  /** Loads what the first invocation needs, in the background; safe to call any number of times. */
  warmUp(): void;
}

export function sharedInvocationRunner(config: ResolvedConfig, observers: Observers | null, extra: Partial<InvocationWiring> = {}): SharedRunner {
  let wired: Promise<WarmInvocationRunner> | null = null;
  const wire = () =>
    (wired ??= Promise.all([import("./invocation-runner.js"), import("../observe/spinner.js")]).then(([{ makeInvocationRunner }, { Spinner }]) =>
      makeInvocationRunner(config, { spinner: new Spinner(process.stderr, extra.batch ? false : undefined), ...observers?.wiring, ...extra }),
    ));
  return {
    runner: async (context) => (await wire())(context),
    // A failure to load is the first pause's to report; warming up only tries.
    warmUp: () =>
      void wire().then(
        (run) => run.warmUp(),
        () => undefined,
      ),
  };
}

/** The pause coordinators of one run, all on the run's one invocation runner. */
export class RunPauses {
  private readonly coordinators = new Set<PauseCoordinator>();
  /** The interpreter's coordinator. */
  readonly main: PauseCoordinator;

  /** `stop` ends the run with an outcome (a coordinator's failure, or a pause that cannot go on). */
  constructor(
    private readonly shared: SharedRunner,
    private readonly stop: (outcome: RunOutcome) => void,
    send: (message: HostMessage) => void,
  ) {
    this.main = this.coordinatorFor(send);
  }

  /** A coordinator for a process's link (SPEC §8: a child's pauses share the runner). */
  coordinatorFor(send: (message: HostMessage) => void): PauseCoordinator {
    const coordinator = new PauseCoordinator(
      send,
      this.shared.runner,
      (error) => this.stop(internalOutcome((error as Error).message)),
      (message) => this.stop({ kind: "status", status: ExitStatus.uncaughtException, message }),
    );
    this.coordinators.add(coordinator);
    return coordinator;
  }

  /** Loads the model client and the orchestrator in the background (after a plan with blocks). */
  warmUp(): void {
    this.shared.warmUp();
  }

  /** Every coordinator's invocations have ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.coordinators].map((coordinator) => coordinator.settled()));
  }
}
