// What one invocation needs besides the model (src/model-port.ts): the paused frame and the
// settings of its profile. The frame port is implemented over the bridge channel
// (invocation/pause-coordinator.ts), or by a fake frame in tests; the orchestrator never
// sees a channel, a config file or a credential.

import type { FrameOpResult, OpArguments, OpName, PauseRequest } from "../bridge/protocol.js";
import type { ExchangeRef } from "../model-port.js";
import type { ProfileRef } from "./permissions.js";
import type { CapabilityPort } from "../capability-port.js";
import type { StopSignal } from "../stop-signal.js";

export type { FrameOpResult, OpName };

/** Operations on one paused frame, served by the bridge on the frame's own thread. */
export interface FramePort {
  /** `signal`: aborted when the op has run past its time; the bridge then interrupts it (SPEC §9). */
  op<K extends OpName>(name: K, args: OpArguments[K], signal?: StopSignal): Promise<FrameOpResult>;
}

export interface InvocationSettings {
  /** Model calls per invocation (`max_rounds`, §7). */
  maxRounds: number;
  /** Seconds per invocation, model and tool time included (`timeout`, §7). */
  timeoutSeconds: number;
  /** Seconds one frame op may run before it is interrupted and the model gets a tool error (`tool_timeout`, §9); default: only `timeout`. */
  toolTimeoutSeconds?: number;
  /** Granted permissions (§7): `execute_code` and `read_code` gate tools, `write_filesystem` the guard's writes. */
  permissions: ReadonlySet<string>;
  /** The profile, named in the message of a denied permission (default: "default"). */
  profile?: ProfileRef;
}

/** Tools the host serves itself (the code-reading tools, SPEC §9): arguments already validated. */
export interface HostToolPort {
  run(name: string, args: Record<string, unknown>): Promise<FrameOpResult>;
}

/** A call with effects about to run (SPEC §9 `--approve`). */
export interface ApprovalCall {
  name: string;
  args: Record<string, unknown>;
  request: PauseRequest;
}

/** Asks whether a call with effects may run (effects.ts); false: the model gets "denied by the user". */
export interface ApprovalPort {
  approve(call: ApprovalCall): Promise<boolean>;
}

/**
 * The mailbox of the participant whose thread or task paused (SPEC §8): the three mailbox tools
 * run against it (mailbox-tools.ts). Implemented over the run's broker (src/run).
 */
export interface MailboxPort {
  /** Who this invocation is, its peers, and how many messages wait for it (the live message). */
  status(): { me: string; peers: string[]; unread: number };
  peers(): { me: string; peers: { name: string; joined: boolean }[] };
  /** `payload` is the JSON text of the value to send. */
  send(to: string, payload: string, id?: string): { id: string; duplicate: boolean };
  read(limit?: number): { messages: { id: string; from: string; payload: string }[]; remaining: number };
}

/** A call with effects about to run (effects.ts `journaledEffect`), and the answer that asked for it. */
export interface EffectCall {
  tool: string;
  callId: string;
  /** "file:line" of the block. */
  block: string;
  exchange: ExchangeRef | undefined;
}

/**
 * The journal's record of effects (SPEC §11.2): asked before a call with effects runs, it writes
 * the intent and says to go on (`ended` is called once the call has ended), or, in a resumed run,
 * that an earlier run started this very call and never saw it end: then it does not run.
 */
export interface EffectJournalPort {
  starting(call: EffectCall): Promise<{ run: true; ended(): void } | { run: false; message: string }>;
}

/** The ports a model's tool calls reach (orchestrator.ts passes them to call-runner.ts). */
export interface InvocationServices {
  frame: FramePort;
  /** SPEC §10: the capabilities of this invocation (run_plan, jobs, resume_job); none when absent. */
  capabilities?: CapabilityPort;
  /** Serves the code-reading tools; without it they are not offered. */
  hostTools?: HostToolPort;
  /** `--approve`: asked before each call with effects (effects.ts). */
  approval?: ApprovalPort;
  /** SPEC §8: the mailbox of the joined thread or task that paused; no mailbox tools without it. */
  mailbox?: MailboxPort;
  /** SPEC §11.2: the journal's record of calls with effects (effects.ts); without it they just run. */
  effects?: EffectJournalPort;
}
