// What one invocation needs besides the model (src/model-port.ts): the paused frame and the
// settings of its profile. The frame port is implemented over the bridge channel
// (recovery/bridge/pause-coordinator.ts), or by a fake frame in tests; the orchestrator never
// sees a channel, a config file or a credential.

import type { FrameOpResult, OpArguments, OpName } from "../bridge/protocol.js";

export type { FrameOpResult, OpName };

/** Operations on one paused frame, served by the bridge on the frame's own thread. */
export interface FramePort {
  op<K extends OpName>(name: K, args: OpArguments[K]): Promise<FrameOpResult>;
}

export interface InvocationSettings {
  /** Model calls per invocation (`max_rounds`, §7). */
  maxRounds: number;
  /** Seconds per invocation, model and tool time included (`timeout`, §7). */
  timeoutSeconds: number;
  /** Granted permissions (§7); only `execute_code` matters to the core tools. */
  permissions: ReadonlySet<string>;
}
