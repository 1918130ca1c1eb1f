// Pauses of a run with a model configured (SPEC §4.2, §4.3): a PauseCoordinator on the bridge
// whose runner is the invocation runner. The orchestrator (ajv), the model client (openai) and
// the spinner load at the first pause: a run that never reaches a block or a failure never pays
// for them.

import type { ResolvedConfig } from "../config/index.js";
import type { BridgeProcess } from "../recovery/bridge/bridge-process.js";
import { PauseCoordinator, type InvocationRunner } from "../recovery/bridge/pause-coordinator.js";
import type { InvocationWiring } from "./invocation-runner.js";
import type { Observers } from "./observers.js";

export function pauseCoordinator(
  config: ResolvedConfig,
  observers: Observers | null,
  bridge: BridgeProcess,
  onFailure: (error: unknown) => void,
  rails: Pick<InvocationWiring, "holdClock" | "approve"> = {},
): PauseCoordinator {
  let wired: Promise<InvocationRunner> | null = null;
  const runner: InvocationRunner = async (context) => {
    wired ??= Promise.all([import("./invocation-runner.js"), import("../observe/spinner.js")]).then(
      ([{ makeInvocationRunner }, { Spinner }]) => makeInvocationRunner(config, { spinner: new Spinner(), ...observers?.wiring, ...rails }),
    );
    return (await wired)(context);
  };
  return new PauseCoordinator((message) => bridge.send(message), runner, onFailure);
}
