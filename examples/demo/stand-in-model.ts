// A rule-based stand-in for a real model, so that `npm run demo` shows examples/tickets.py end
// to end on a machine with no network and no API key. It speaks the OpenAI-compatible protocol
// through the test suite's loopback server and knows exactly two instructions of the tickets
// example, one recovery decision (skip the failing statement, for examples/recovery.py), the
// plans of the capability examples (stand-in-plans.ts), the console's example line
// `x = pick a number between 1 and 10` (two thirds of the way: 7), and the one test request of
// `aiython setup --check` (two `note` calls in one reply); anything else gets an `error`
// outcome saying so. It is not a model.

import { finishCall, startLoopbackModel, toolCall, type ScriptedReply } from "../../test/support/loopback-model.js";
import { planReply } from "./stand-in-plans.js";

interface Related {
  name: string;
  value?: unknown;
}

function request(body: { messages: { role: string; content: string | null }[] }) {
  const users = body.messages.filter((m) => m.role === "user").map((m) => JSON.parse(m.content ?? "{}"));
  const stable = users[0] ?? {};
  const live = users[1] ?? {};
  return {
    mode: String(stable.mode ?? "syntax"),
    statement: String(stable.statement ?? ""),
    related: (live.related_objects ?? []) as Related[],
    rounds: body.messages.filter((m) => m.role === "tool").length,
    lastTool: body.messages.at(-1)?.role === "tool" ? (body.messages.at(-1)?.content ?? null) : null,
  };
}

export function standInReply(body: { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] }): ScriptedReply {
  if (body.tools?.some((t) => t.function.name === "note")) {
    return { toolCalls: [toolCall("note", { n: 1 }), toolCall("note", { n: 2 })] };
  }
  const { statement, related, rounds, mode, lastTool } = request(body);
  const planned = mode === "syntax" ? planReply(statement, lastTool) : null;
  if (planned) return planned;
  if (mode === "recovery") {
    // examples/recovery.py: a record without a readable age is skipped (the statement counts as done).
    return { toolCalls: [toolCall("recover", { action: "complete", explanation: "skipped a record without a readable age" })] };
  }
  if (rounds > 0) return finishCall({ kind: "error", reason: "the stand-in model cannot repair an answer" });
  if (/classify/.test(statement)) {
    const ticket = String(related.find((r) => r.name === "ticket")?.value ?? "");
    const billing = /charg|refund|invoice|pay/i.test(ticket);
    return finishCall({ kind: "literal", value: billing ? "billing" : "bug" });
  }
  const pick = /pick a number between (-?\d+) and (-?\d+)/.exec(statement);
  if (pick) {
    const [low, high] = [Number(pick[1]), Number(pick[2])].sort((a, b) => a - b);
    return finishCall({ kind: "literal", value: low + Math.floor(((high - low) * 2) / 3) });
  }
  if (/summari[sz]e/.test(statement)) {
    // An `expression` outcome: evaluated in the live frame, where `queues` holds the routed tickets.
    const code = "f\"{len(queues['billing'])} billing tickets and {len(queues['bug'])} bug reports were routed.\"";
    return finishCall({ kind: "expression", code });
  }
  return finishCall({ kind: "error", reason: "the stand-in model only knows examples/tickets.py and `pick a number between A and B`; configure a real model (AIYTHON_MODEL)" });
}

export async function startStandInModel(latencyMs = 0) {
  return startLoopbackModel({ responder: (req) => ({ ...standInReply(req.body), ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) }) });
}
