// A rule-based stand-in for a real model, so that `npm run demo` shows the README's examples end
// to end on a machine with no network and no API key. It speaks the OpenAI-compatible protocol
// through the test suite's loopback server and knows exactly: the two instructions of
// examples/tickets.py, the statement block of examples/statement_block.py (one `execute`), the
// invoice of examples/typed_results.py (read from the email with two regular expressions), one
// recovery decision (skip the failing statement, for examples/recovery.py), the plans of the
// capability examples (stand-in-plans.ts), the console's example line `x = pick a number between
// 1 and 10` (two thirds of the way: 7), and the one test request of `aiython setup --check` (two
// `note` calls in one reply). Anything else gets an `error` outcome that says what it is and
// what it knows. It is not a model.

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
  if (rounds > 0) {
    // Its one answer came back as a tool error: a model would read it and try again; rules cannot.
    const error = lastTool ? ` (the tool said: ${shortened(lastTool)})` : "";
    return finishCall({
      kind: "error",
      reason: `the demo's stand-in model answers each block it knows in one try and cannot fix an answer the program refused${error}; configure a real model (aiython setup)`,
    });
  }
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
  if (/^normalise every address in contacts/.test(statement)) {
    // A statement block: its effect goes through execute, then it finishes with no value.
    const code = "contacts[:] = list(dict.fromkeys(address.strip().lower() for address in contacts))";
    return { toolCalls: [toolCall("execute", { code }), toolCall("finish", { outcome: { kind: "none" } })] };
  }
  if (/^extract the invoice from the email/.test(statement)) {
    const invoice = invoiceIn(String(related.find((r) => r.name === "email")?.value ?? ""));
    if (invoice) return { toolCalls: [toolCall("finish", invoice)] };
  }
  return finishCall({
    kind: "error",
    reason: `the demo's stand-in model is not a model: it knows only ${KNOWN}, and this block is "${shortened(statement)}"; configure a real model (aiython setup)`,
  });
}

const KNOWN =
  "the blocks of the README's examples (tickets.py, statement_block.py, typed_results.py, recovery.py, parallel.py, notes_search.py, transcribe.py) and `pick a number between A and B`";

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

/**
 * examples/typed_results.py's Invoice, as `finish` arguments written as JSON text: amounts keep
 * their `.0`, as a model writes them (the type contract takes a float, never an int, for a float).
 */
function invoiceIn(email: string): string | null {
  const number = /INV-\d+/.exec(email)?.[0];
  const total = /([\d,]+\.\d\d) \w+ in total/.exec(email)?.[1];
  const lines = [...email.matchAll(/([A-Za-z]+) ([\d,]+\.\d\d) [A-Z]{3}/g)].filter((m) => m[1] !== "in");
  if (!number || !total || lines.length === 0) return null;
  const amount = (text: string) => Number(text.replaceAll(",", "")).toFixed(1);
  const items = lines.map(([, item, value]) => `{"item":${JSON.stringify(item[0].toUpperCase() + item.slice(1))},"amount":${amount(value)}}`);
  return `{"outcome":{"kind":"literal","value":{"number":"${number}","total":${amount(total)},"lines":[${items.join(",")}]}}}`;
}

export async function startStandInModel(latencyMs = 0) {
  return startLoopbackModel({ responder: (req) => ({ ...standInReply(req.body), ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) }) });
}
