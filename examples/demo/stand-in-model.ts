// A rule-based stand-in for a real model, so that `npm run demo` shows examples/tickets.py end
// to end on a machine with no network and no API key. It speaks the OpenAI-compatible protocol
// through the test suite's loopback server and knows exactly two instructions of the tickets
// example and one recovery decision (skip the failing statement, for examples/recovery.py);
// anything else gets an `error` outcome saying so. It is not a model.

import { finishCall, startLoopbackModel, toolCall, type ScriptedReply } from "../../test/support/loopback-model.js";

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
  };
}

export function standInReply(body: { messages: { role: string; content: string | null }[] }): ScriptedReply {
  const { statement, related, rounds, mode } = request(body);
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
  if (/summari[sz]e/.test(statement)) {
    // An `expression` outcome: evaluated in the live frame, where `queues` holds the routed tickets.
    const code = "f\"{len(queues['billing'])} billing tickets and {len(queues['bug'])} bug reports were routed.\"";
    return finishCall({ kind: "expression", code });
  }
  return finishCall({ kind: "error", reason: "the stand-in model only knows examples/tickets.py; configure a real model (AIYTHON_MODEL)" });
}

export async function startStandInModel(latencyMs = 0) {
  return startLoopbackModel({ responder: (req) => ({ ...standInReply(req.body), ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) }) });
}
