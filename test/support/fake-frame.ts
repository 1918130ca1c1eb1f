// A fake FramePort for orchestrator tests: records every op with its arguments and answers from
// per-op handlers (default: ok with a small descriptor for value ops, {"ok": true} otherwise).

import type { FrameOpResult, FramePort } from "../../src/recovery/ports.js";

export type OpHandler = (args: Record<string, unknown>) => FrameOpResult | Promise<FrameOpResult>;

export interface RecordedOp {
  name: string;
  args: Record<string, unknown>;
}

export const ok = (value: unknown): FrameOpResult => ({ ok: true, value });
export const opError = (type: string, message: string): FrameOpResult => ({ ok: false, error: { type, message } });

export class FakeFrame implements FramePort {
  readonly ops: RecordedOp[] = [];
  private nextHandle = 1;

  constructor(private readonly handlers: Partial<Record<string, OpHandler>> = {}) {}

  names(): string[] {
    return this.ops.map((op) => op.name);
  }

  async op(name: string, args: Record<string, unknown>): Promise<FrameOpResult> {
    this.ops.push({ name, args: structuredClone(args) });
    const handler = this.handlers[name];
    if (handler) return handler(args);
    if (name === "evaluate" || name === "get_binding") {
      return ok({ handle: `object-${this.nextHandle++}`, type: "str", module: "builtins", qualname: "str", value: "x" });
    }
    return ok({ ok: true });
  }
}
