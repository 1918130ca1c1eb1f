// A rule-based stand-in for a real model, so that `npm run demo` shows the README's examples end
// to end on a machine with no network and no API key. It speaks the OpenAI-compatible protocol
// through the test suite's loopback server, and answers the examples' blocks and recoveries from
// examples/rules.toml through aiython's own scripted model (the rules `AIYTHON_MODEL=script:
// examples/rules.toml` answers from, in the aiython process itself). What a rules file cannot say
// stays here: the plans of the capability examples (stand-in-plans.ts), the console's example line
// `x = pick a number between 1 and 10` (two thirds of the way: 7, for any two bounds), and the one
// test request of `aiython setup --check` (two `note` calls in one reply). A block no rule answers
// gets an `error` outcome that says what the stand-in is and what it knows. It is not a model.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { scriptedModel } from "../../src/scripted-model/index.js";
import type { ChatMessage, ToolSpec } from "../../src/model-port.js";
import { startLoopbackBatch } from "../../test/support/loopback-batch.js";
import { finishCall, startLoopbackModel, toolCall, type ScriptedReply } from "../../test/support/loopback-model.js";
import { planReply } from "./stand-in-plans.js";

const RULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "rules.toml");
const rules = scriptedModel({ id: "stand-in", file: RULES }, {});

interface Body {
  messages: { role: string; content: string | null }[];
  tools?: { function: { name: string } }[];
}

function request(body: Body) {
  // The request's JSON messages; a reminder aiython adds in words ("Your response had no tool call") is not one.
  const users = body.messages.filter((m) => m.role === "user" && m.content?.startsWith("{")).map((m) => JSON.parse(m.content ?? "{}"));
  const stable = users[0] ?? {};
  return {
    mode: String(stable.mode ?? "syntax"),
    statement: String(stable.statement ?? ""),
    lastTool: body.messages.at(-1)?.role === "tool" ? (body.messages.at(-1)?.content ?? null) : null,
  };
}

export async function standInReply(body: Body): Promise<ScriptedReply> {
  if (body.tools?.some((t) => t.function.name === "note")) {
    return { toolCalls: [toolCall("note", { n: 1 }), toolCall("note", { n: 2 })] };
  }
  const { statement, mode, lastTool } = request(body);
  const planned = mode === "syntax" ? planReply(statement, lastTool) : null;
  if (planned) return planned;
  const pick = /pick a number between (-?\d+) and (-?\d+)/.exec(statement);
  if (pick && lastTool === null) {
    const [low, high] = [Number(pick[1]), Number(pick[2])].sort((a, b) => a - b);
    return finishCall({ kind: "literal", value: low + Math.floor(((high - low) * 2) / 3) });
  }
  try {
    const answered = await rules.complete(
      { messages: body.messages as ChatMessage[], tools: (body.tools ?? []) as ToolSpec[], toolChoice: "required" },
      { deadline: Date.now() + 60_000 },
    );
    return { toolCalls: answered.message.tool_calls.map((call) => toolCall(call.function.name, call.function.arguments)) };
  } catch {
    return finishCall({
      kind: "error",
      reason: `the demo's stand-in model is not a model: it knows only ${KNOWN}, and this block is "${shortened(statement)}"; configure a real model (aiython setup)`,
    });
  }
}

const KNOWN =
  "the blocks of the README's examples (tickets.py, statement_block.py, typed_results.py, recovery.py, parallel.py, notes_search.py, transcribe.py) and `pick a number between A and B`";

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

export async function startStandInModel(latencyMs = 0) {
  return startLoopbackModel({ responder: async (req) => ({ ...(await standInReply(req.body)), ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) }) });
}

/** The stand-in behind an OpenAI Batch API too (`npm run demo -- --batch …`): each batch is
 * validating, then in progress, then completed, one poll each, its lines answered as live. */
export async function startStandInBatch(latencyMs = 0) {
  const server = await startLoopbackBatch({ responder: async (req) => ({ ...(await standInReply(req.body as Body)), ...(latencyMs > 0 ? { delayMs: latencyMs } : {}) }) });
  return { url: server.url, batches: server.batches, liveChats: () => server.liveChats(), close: () => server.close() };
}
