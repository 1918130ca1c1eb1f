// Pauses of a run with a model configured (SPEC §4.2, §4.3): a PauseCoordinator on the bridge
// whose runner is the invocation runner. The orchestrator, the model client (openai) and the
// spinner load at the first pause, or earlier when the run warms them up (program-run.ts: once a
// plan with AI blocks is answered, while the program runs up to its first block): a run that
// never reaches a block or a failure never pays for them, and one with blocks meets its first
// block with them loaded.

import type { ResolvedConfig } from "../config/index.js";
import type { BridgeProcess } from "../recovery/bridge/bridge-process.js";
import { PauseCoordinator, type InvocationRunner } from "../recovery/bridge/pause-coordinator.js";
import type { InvocationWiring, WarmInvocationRunner } from "./invocation-runner.js";
import type { Observers } from "./observers.js";

export interface PauseWiring {
  coordinator: PauseCoordinator;
  /** Loads what the first invocation needs, in the background; safe to call any number of times. */
  warmUp(): void;
}

export function pauseWiring(
  config: ResolvedConfig,
  observers: Observers | null,
  bridge: BridgeProcess,
  onFailure: (error: unknown) => void,
  rails: Pick<InvocationWiring, "holdClock" | "approve"> = {},
): PauseWiring {
  let wired: Promise<WarmInvocationRunner> | null = null;
  const wire = () =>
    (wired ??= Promise.all([import("./invocation-runner.js"), import("../observe/spinner.js")]).then(([{ makeInvocationRunner }, { Spinner }]) =>
      makeInvocationRunner(config, { spinner: new Spinner(), ...observers?.wiring, ...rails }),
    ));
  const runner: InvocationRunner = async (context) => (await wire())(context);
  return {
    coordinator: new PauseCoordinator((message) => bridge.send(message), runner, onFailure),
    // A failure to load is the first pause's to report; warming up only tries.
    warmUp: () => void wire().then((run) => run.warmUp(), () => undefined),
  };
}
