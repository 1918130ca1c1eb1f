// A fake FramePort for orchestrator tests: records every op with its arguments and answers from
// per-op handlers (default: ok with a small descriptor for value ops, {"ok": true} otherwise),
// and the ops whose abort signal fired (the host would have sent `interrupt`). A terminal op's
// literal comes without its value, which the bridge reads from `raw_arguments`; so does this frame
// (`ops` holds the value read so, `sentOutcomes` the outcomes as the host sent them).

import type { FrameOpResult, FramePort } from "../../src/invocation/ports.js";

export type OpHandler = (args: Record<string, unknown>, signal?: AbortSignal) => FrameOpResult | Promise<FrameOpResult>;

export interface RecordedOp {
  name: string;
  args: Record<string, unknown>;
}

export const ok = (value: unknown): FrameOpResult => ({ ok: true, value });
export const opError = (type: string, message: string): FrameOpResult => ({ ok: false, error: { type, message } });

export class FakeFrame implements FramePort {
  readonly rawArguments: string[] = [];
  /** The `outcome` of each terminal op as the host sent it. */
  readonly sentOutcomes: unknown[] = [];
  readonly ops: RecordedOp[] = [];
  /** Names of the ops interrupted while they ran. */
  readonly interrupted: string[] = [];
  private nextHandle = 1;

  constructor(private readonly handlers: Partial<Record<string, OpHandler>> = {}) {}

  names(): string[] {
    return this.ops.map((op) => op.name);
  }

  async op(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<FrameOpResult> {
    signal?.addEventListener("abort", () => this.interrupted.push(name), { once: true });
    // `raw_arguments` of terminal ops (the model's own text) is kept apart so tests compare args plainly.
    const { raw_arguments: raw, ...rest } = args;
    if (typeof raw === "string") this.rawArguments.push(raw);
    if ("outcome" in rest) this.sentOutcomes.push(structuredClone(rest.outcome));
    const read = withLiteral(rest, raw);
    this.ops.push({ name, args: structuredClone(read) });
    const handler = this.handlers[name];
    if (handler) return handler(typeof raw === "string" ? { ...read, raw_arguments: raw } : read, signal);
    if (name === "evaluate" || name === "get_binding") {
      return ok({ handle: `object-${this.nextHandle++}`, type: "str", module: "builtins", qualname: "str", value: "x" });
    }
    return ok({ ok: true });
  }
}

/** The op's arguments with a literal outcome's value read from `raw_arguments`, as the bridge reads it. */
function withLiteral(args: Record<string, unknown>, raw: unknown): Record<string, unknown> {
  const outcome = args.outcome as { kind?: string } | undefined;
  if (outcome?.kind !== "literal" || typeof raw !== "string" || "value" in outcome) return args;
  return { ...args, outcome: { ...outcome, value: (JSON.parse(raw) as { outcome: { value: unknown } }).outcome.value } };
}
