// Pauses of a run with a model configured (SPEC §4.2, §4.3): one invocation runner for the
// whole run — every process of it (SPEC §8) shares its model clients, its max_concurrency, its
// journal and stats — and a PauseCoordinator per process on that process's link. The
// orchestrator (ajv), the model client (openai) and the spinner load at the first pause: a run
// that never reaches a block or a failure never pays for them.

import type { ResolvedConfig } from "../config/index.js";
import type { HostMessage } from "../recovery/bridge/protocol.js";
import { PauseCoordinator, type InvocationRunner } from "../recovery/bridge/pause-coordinator.js";
import type { InvocationWiring } from "./invocation-runner.js";
import type { Observers } from "./observers.js";

export function sharedInvocationRunner(config: ResolvedConfig, observers: Observers | null, extra: Partial<InvocationWiring> = {}): InvocationRunner {
  let wired: Promise<InvocationRunner> | null = null;
  return async (context) => {
    wired ??= Promise.all([import("./invocation-runner.js"), import("../observe/spinner.js")]).then(
      ([{ makeInvocationRunner }, { Spinner }]) => makeInvocationRunner(config, { spinner: new Spinner(), ...observers?.wiring, ...extra }),
    );
    return (await wired)(context);
  };
}

export function pauseCoordinator(runner: InvocationRunner, send: (message: HostMessage) => void, onFailure: (error: unknown) => void): PauseCoordinator {
  return new PauseCoordinator(send, runner, onFailure);
}
