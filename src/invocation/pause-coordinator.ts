// Host side of pauses (docs/protocol.md): each `pause` from the bridge starts one invocation
// with its own FramePort; op results are routed back by id; a `pause_end` the host did not
// cause (the program was interrupted, e.g. Ctrl-C) cancels that invocation; one that follows a
// terminal op's answer (the bridge writes the two together) has nothing to cancel, and aborting
// would only build an AbortError per block. Several pauses run
// at once (threads and tasks each stopped at their own block, SPEC §8). An invocation starts on
// the next turn of the event loop: a pause that arrives in the same read as the previous block's
// terminal result then starts after that invocation has finished its bookkeeping (its outcome
// is traced and recorded first, so the events of consecutive blocks stay in order, SPEC §11).
//
// A tool that runs past its time (SPEC §9) is interrupted: the op's abort signal sends
// `interrupt`, and an op still unanswered TOOL_INTERRUPT_GRACE_MS later (a call that cannot be
// cut short, or code that catches the interruption) is reported to `onStuck`, which ends the run:
// nothing else would ever resume that thread. An interpreter that ends while an op runs (the
// tool ended the process) is reported by `bridgeEnded()`.

import { TOOL_INTERRUPT_GRACE_MS } from "../defaults.js";
import type { InvocationEnd, InvocationMode } from "../invocation-record.js";
import type { FrameOpResult, FramePort } from "./ports.js";
import { Stopper, type StopSignal } from "../stop-signal.js";
import type { BridgeMessage, HostMessage, OpArguments, OpMessage, OpName, PauseMessage, PauseRequest } from "../bridge/protocol.js";

export interface PauseContext {
  pause: string;
  mode: InvocationMode;
  request: PauseRequest;
  frame: FramePort;
  signal: StopSignal;
}

/** Runs the model loop of one pause; the coordinator sends `fail` when it ends `failed`. */
export type InvocationRunner = (context: PauseContext) => Promise<InvocationEnd>;

interface Live {
  controller: Stopper;
  /** Where the pause is (`file:line`), for messages. */
  where: string;
  ops: Map<string, { resolve: (result: FrameOpResult) => void; terminal: boolean; name: OpName }>;
  ended: boolean;
  /** A terminal op (finish, resume, fail) was answered ok: the frame is done with this invocation. */
  done: boolean;
}

/** `recover` is not among them: the bridge keeps an accepted decision until the host's `resume` (SPEC §4.2's notice goes first). */
const TERMINAL_OPS: ReadonlySet<OpName> = new Set<OpName>(["finish", "resume", "fail"]);

const PAUSE_ENDED: FrameOpResult = { ok: false, error: { type: "PauseEnded", message: "the program resumed without this block" } };

export class PauseCoordinator {
  private readonly live = new Map<string, Live>();
  private nextOp = 0;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly send: (message: HostMessage) => void,
    private readonly run: InvocationRunner,
    private readonly onFailure: (error: unknown) => void,
    /** An interrupted op did not stop (see the header); `message` says which and where. */
    private readonly onStuck: (message: string) => void = () => undefined,
  ) {}

  /** Returns false for messages that are not about pauses. */
  handle(message: BridgeMessage): boolean {
    switch (message.type) {
      case "pause":
        this.start(message);
        return true;
      case "pause_end":
        this.end(message.pause, message.interrupted);
        return true;
      case "result": {
        if (message.pause === undefined) return false;
        const live = this.live.get(message.pause);
        const waiting = live?.ops.get(message.id);
        if (live && waiting) {
          live.ops.delete(message.id);
          if (message.ok && waiting.terminal) live.done = true;
          waiting.resolve(message.ok ? { ok: true, value: message.value } : { ok: false, error: { type: message.error.type, message: message.error.message } });
        }
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * The interpreter has ended: every pause is over as if it had sent `pause_end`. Its invocation
   * is cancelled, ops still waiting answer PauseEnded and no `fail` is sent: nothing would ever
   * answer them, and an invocation waiting on one would never settle (with nothing else left to
   * wait for, Node would exit 0 before the run's outcome, e.g. SIGTERM during a model request).
   * Returns the op that was running then (`file:line: the execute tool`), if one was: the
   * interpreter ended inside a tool (SPEC §9 says a tool cannot end the run).
   */
  bridgeEnded(): string | null {
    let running: string | null = null;
    for (const [pause, live] of [...this.live]) {
      for (const op of live.ops.values()) if (!op.terminal && running === null) running = `${live.where}: the ${op.name} tool`;
      this.end(pause);
    }
    return running;
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /**
   * The paused thread resumed without a terminal op from us: stop its invocation. Interrupted
   * (Ctrl-C), the bridge waits for `resume` before the exception goes on: the abort has already
   * erased the spinner (its listeners run now), so the traceback and the prompt stay whole.
   */
  private end(pause: string, interrupted = false): void {
    const live = this.live.get(pause);
    if (!live) return;
    live.ended = true;
    if (!live.done) live.controller.abort();
    for (const { resolve } of live.ops.values()) resolve(PAUSE_ENDED);
    live.ops.clear();
    this.live.delete(pause);
    if (interrupted) this.send({ type: "op", pause, id: `o${++this.nextOp}`, op: "resume", args: {} });
  }

  private frameFor(pause: string, live: Live): FramePort {
    return {
      op: <K extends OpName>(op: K, args: OpArguments[K], signal?: StopSignal) =>
        new Promise<FrameOpResult>((resolve) => {
          if (live.ended) return resolve(PAUSE_ENDED);
          const id = `o${++this.nextOp}`;
          let stuck: NodeJS.Timeout | undefined;
          // Past its time (SPEC §9): the bridge interrupts the thread running the op, which then answers.
          const interrupt = () => {
            if (!live.ops.has(id) || live.ended) return;
            this.send({ type: "interrupt", pause, id });
            stuck = setTimeout(() => {
              if (live.ops.has(id) && !live.ended) this.onStuck(stuckMessage(live.where, op, TOOL_INTERRUPT_GRACE_MS));
            }, TOOL_INTERRUPT_GRACE_MS);
            stuck.unref();
          };
          const settle = (result: FrameOpResult) => {
            signal?.removeEventListener("abort", interrupt);
            clearTimeout(stuck);
            resolve(result);
          };
          live.ops.set(id, { resolve: settle, terminal: TERMINAL_OPS.has(op), name: op });
          this.send({ type: "op", pause, id, op, args } as OpMessage);
          signal?.addEventListener("abort", interrupt, { once: true });
          if (signal?.aborted) interrupt();
        }),
    };
  }

  private start(message: PauseMessage): void {
    const { pause, mode, request } = message;
    const live: Live = { controller: new Stopper(), where: `${request.location.file}:${request.location.line}`, ops: new Map(), ended: false, done: false };
    this.live.set(pause, live);
    const frame = this.frameFor(pause, live);
    const task = this.turn()
      .then(() => this.run({ pause, mode, request, frame, signal: live.controller.signal }))
      .then(async (end) => {
        if (end.status === "failed" && !live.ended) await frame.op("fail", { reason: end.reason, ...(end.budget ? { budget: true } : {}) });
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

  /**
   * When a pause may start: while another invocation is still settling (its last events not yet
   * out: the previous block's result and this pause read in one chunk, or threads pausing at
   * once), on the next turn of the event loop, so the events of consecutive blocks stay in order;
   * otherwise on the next microtask, after the rest of the chunk it came in.
   */
  private turn(): Promise<void> {
    return this.running.size > 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve();
  }
}

function stuckMessage(where: string, op: OpName, graceMs: number): string {
  return (
    `${where}: the ${op} tool ran past its time and was still running ${graceMs / 1000} s after it was interrupted ` +
    "(a call that cannot be cut short, or code that catches the interruption); nothing could resume the program there, so the run was ended"
  );
}
