// A loopback model that drives SPEC §10 plans for end-to-end tests: each block of the program (found
// by a piece of its statement text in the request) gets a list of turns; a turn sees the tool
// result the previous turn earned (parsed JSON, null on the first) and answers with tool calls —
// usually `run_plan`, then `finish` with the handle of one step's result. Every tool result the
// model was sent is kept in `seen`, so tests can assert what a plan answered.

import { startLoopbackModel, toolCall, type LoopbackModel, type ScriptedReply } from "./loopback-model.js";

export type Turn = (previous: any) => ScriptedReply;

export interface PlanModel {
  model: LoopbackModel;
  url: string;
  /** Every tool result sent back to the model, parsed, in order. */
  seen: any[];
  close(): Promise<void>;
}

export function runPlan(steps: object[]): Turn {
  return () => ({ toolCalls: [toolCall("run_plan", { steps })] });
}

/** Finish with the handle of step `id`'s result; a step that did not succeed becomes the block's error. */
export function finishWith(id: string): Turn {
  return (previous) => {
    const step = previous?.result?.steps?.[id];
    if (step?.status !== "ok") return { toolCalls: [toolCall("finish", { outcome: { kind: "error", reason: `step ${id}: ${JSON.stringify(step ?? previous)}` } })] };
    return { toolCalls: [toolCall("finish", { outcome: { kind: "handle", id: step.result.handle } })] };
  };
}

/** Finish with a literal computed from the previous tool result. */
export function finishLiteral(value: (previous: any) => unknown): Turn {
  return (previous) => ({ toolCalls: [toolCall("finish", { outcome: { kind: "literal", value: value(previous) } })] });
}

/** The block's statement text from the stable user message (its code context holds the other blocks too). */
function statementOf(content: unknown): string {
  try {
    return String(JSON.parse(String(content)).statement ?? "");
  } catch {
    return "";
  }
}

export async function startPlanModel(blocks: Record<string, Turn[]>): Promise<PlanModel> {
  const seen: any[] = [];
  const model = await startLoopbackModel({
    responder: (req) => {
      const messages: any[] = req.body?.messages ?? [];
      const stable = statementOf(messages[1]?.content);
      const block = Object.keys(blocks).find((text) => stable.includes(text));
      if (block === undefined) return { status: 500, rawBody: JSON.stringify({ error: { message: "plan model: no block matches" } }) };
      const turn = messages.filter((m) => m.role === "assistant").length;
      const last = messages.at(-1);
      const previous = last?.role === "tool" ? JSON.parse(last.content) : null;
      if (previous !== null) seen.push(previous);
      const step = blocks[block][turn];
      if (step === undefined) return { status: 500, rawBody: JSON.stringify({ error: { message: `plan model: no turn ${turn} for ${block}` } }) };
      return step(previous);
    },
  });
  return { model, url: model.url, seen, close: () => model.close() };
}
