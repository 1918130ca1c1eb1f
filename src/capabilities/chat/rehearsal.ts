// A request rehearsed without a network before the first real one: one attempt runs the whole
// client path (the openai client's request building and response parsing, Node's fetch classes,
// which it builds on first use, and the response normaliser) against a fetch that answers at once
// from memory. The model client's warm-up runs it while the program is still on its way to its
// first block, so that block does not pay these one-off costs (SPEC §12). Nothing leaves the
// process, no environment is read and nothing is kept.

import type { OpenAIModuleType } from "./load-openai.js";
import { makeRouteClient, runAttempt } from "./run-attempt.js";
import type { ChatRoute } from "./types.js";

const ROUTE: ChatRoute = { id: "rehearsal/none", model: "none", apiBase: "http://127.0.0.1:9/v1", apiKey: null };

const ANSWER = JSON.stringify({
  id: "rehearsal",
  object: "chat.completion",
  created: 0,
  model: "none",
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: null, tool_calls: [{ id: "call-0", type: "function", function: { name: "finish", arguments: "{}" } }] },
      finish_reason: "tool_calls",
    },
  ],
});

const answerAtOnce = (async () => new Response(ANSWER, { status: 200, headers: { "content-type": "application/json" } })) as typeof fetch;

export async function rehearse(mod: OpenAIModuleType): Promise<void> {
  await runAttempt({
    mod,
    routeClient: makeRouteClient(mod, ROUTE, answerAtOnce),
    route: ROUTE,
    request: { messages: [{ role: "user", content: "rehearsal" }], tools: [], toolChoice: "required" },
    toolChoice: "required",
    stream: false,
    remainingMs: 10_000,
  });
}
