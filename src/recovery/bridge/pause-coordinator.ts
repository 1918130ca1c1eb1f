// Host side of pauses (docs/protocol.md): each `pause` from the bridge starts one invocation
// with its own FramePort; op results are routed back by id; a `pause_end` the host did not
// cause (the program was interrupted, e.g. Ctrl-C) cancels that invocation. Several pauses run
// at once (threads and tasks each stopped at their own block, SPEC §8).

import type { BridgeMessage, HostMessage } from "./protocol.js";
import type { FrameOpResult, FramePort, InvocationEnd, PauseRequest } from "../invocation/ports.js";

export interface PauseContext {
  pause: string;
  mode: "syntax" | "recovery";
  request: PauseRequest & { directive?: { profile?: string | null } };
  frame: FramePort;
  signal: AbortSignal;
}

export type InvocationRunner = (context: PauseContext) => Promise<InvocationEnd>;

interface Live {
  controller: AbortController;
  ops: Map<string, (result: FrameOpResult) => void>;
  ended: boolean;
}

export class PauseCoordinator {
  private readonly live = new Map<string, Live>();
  private nextOp = 0;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly send: (message: HostMessage) => void,
    private readonly run: InvocationRunner,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** Returns false for messages that are not about pauses. */
  handle(message: BridgeMessage): boolean {
    switch (message.type) {
      case "pause":
        this.start(message.pause, message.mode, message.request as unknown as PauseContext["request"]);
        return true;
      case "pause_end": {
        const live = this.live.get(message.pause);
        if (live) {
          live.ended = true;
          live.controller.abort();
          for (const resolve of live.ops.values()) {
            resolve({ ok: false, error: { type: "PauseEnded", message: "the program resumed without this block" } });
          }
          live.ops.clear();
          this.live.delete(message.pause);
        }
        return true;
      }
      case "result": {
        if (message.pause === undefined) return false;
        const resolve = this.live.get(message.pause)?.ops.get(message.id);
        if (resolve) {
          this.live.get(message.pause)!.ops.delete(message.id);
          resolve(message.ok ? { ok: true, value: message.value } : { ok: false, error: { type: message.error.type, message: message.error.message } });
        }
        return true;
      }
      default:
        return false;
    }
  }

  /** Cancels every invocation (the program ended or the run is being torn down). */
  cancelAll(): void {
    for (const live of this.live.values()) live.controller.abort();
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private start(pause: string, mode: "syntax" | "recovery", request: PauseContext["request"]): void {
    const live: Live = { controller: new AbortController(), ops: new Map(), ended: false };
    this.live.set(pause, live);
    const frame: FramePort = {
      op: (op, args) =>
        new Promise<FrameOpResult>((resolve) => {
          if (live.ended) {
            resolve({ ok: false, error: { type: "PauseEnded", message: "the program resumed without this block" } });
            return;
          }
          const id = `o${++this.nextOp}`;
          live.ops.set(id, resolve);
          this.send({ type: "op", pause, id, op, args });
        }),
    };
    const task = this.run({ pause, mode, request, frame, signal: live.controller.signal })
      .then(async (end) => {
        if (end.status === "failed" && !live.ended) {
          await frame.op("fail", { reason: end.reason });
        }
      })
      .catch((error) => {
        if (!live.ended) void frame.op("fail", { reason: "internal error of aiython while running this block" });
        this.onFailure(error);
      })
      .finally(() => {
        this.running.delete(task);
      });
    this.running.add(task);
  }
}
