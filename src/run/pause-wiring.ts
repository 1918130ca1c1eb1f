// Pauses of a run with a model configured (SPEC §4.2, §4.3): one invocation runner for the
// whole run — every process of it (SPEC §8) shares its model clients, its max_concurrency, its
// journal and stats — and a PauseCoordinator per process on that process's link. The
// orchestrator, the model client (openai) and the spinner load at the first pause, or earlier
// when the run warms them up (program-run.ts: once a plan with AI blocks is answered, while the
// program runs up to its first block): a run that never reaches a block or a failure never pays
// for them, and one with blocks meets its first block with them loaded.

import type { ResolvedConfig } from "../config/index.js";
import type { HostMessage } from "../bridge/protocol.js";
import { PauseCoordinator, type InvocationRunner } from "../invocation/pause-coordinator.js";
import type { InvocationWiring, WarmInvocationRunner } from "./invocation-runner.js";
import type { Observers } from "./observers.js";

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

export function pauseCoordinator(
  runner: InvocationRunner,
  send: (message: HostMessage) => void,
  onFailure: (error: unknown) => void,
  onStuck: (message: string) => void,
): PauseCoordinator {
  return new PauseCoordinator(send, runner, onFailure, onStuck);
}
