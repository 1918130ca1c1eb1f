// What `aiython setup` asks a server before it saves a route (SPEC §7): the models its `/models`
// lists, and — for `--check` — one tiny forced tool call that shows what the server supports:
// whether it honours tool_choice "required" (else aiython asks with "auto"), whether several
// calls come in one reply, and whether the call arrives as JSON in content (server-quirks.ts).
// Both go through the same openai client and failure wording as a run; the key is never shown.

import { loadOpenAI } from "./load-openai.js";
import { makeRouteClient, runAttempt } from "./run-attempt.js";
import { hintError, toolCallsFromContent, type ToolChoice } from "./server-quirks.js";
import { malformedError, ModelCallError, networkError, serverError, statusError, timeoutError, tooLargeError } from "./errors.js";
import type { AttemptFailure } from "./classify-failure.js";
import type { ModelRequest, ToolSpec } from "../model-port.js";
import type { ChatRoute } from "./types.js";

export interface ServerReport {
  /** "required", or "auto" when the server rejected "required". */
  toolChoice: ToolChoice;
  /** Tool calls in the one reply (2 asked for). */
  calls: number;
  /** The calls came as JSON text in content. */
  callsInContent: boolean;
  seconds: number;
}

const NOTE: ToolSpec = {
  type: "function",
  function: {
    name: "note",
    description: "Record a number.",
    parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
  },
};

const CHECK_REQUEST: ModelRequest = {
  messages: [
    { role: "system", content: "This is a connection test. Reply only with tool calls." },
    { role: "user", content: "Call note twice in this one reply: first with n = 1, then with n = 2." },
  ],
  tools: [NOTE],
  toolChoice: "required",
};

/** One forced tool call; throws ModelCallError naming what failed and the fix. */
export async function checkServer(route: ChatRoute, timeoutMs: number): Promise<ServerReport> {
  const mod = await loadOpenAI();
  const routeClient = makeRouteClient(mod, route, globalThis.fetch);
  const started = Date.now();
  for (const toolChoice of ["required", "auto"] as const) {
    const remainingMs = started + timeoutMs - Date.now();
    const result = await runAttempt({ mod, routeClient, route, request: CHECK_REQUEST, toolChoice, stream: false, remainingMs });
    if (result.ok) {
      const { message } = result.answer;
      const fromContent = message.tool_calls.length === 0 ? toolCallsFromContent(message.content, CHECK_REQUEST.tools) : null;
      const calls = fromContent ?? message.tool_calls;
      if (calls.length === 0) {
        throw new ModelCallError("malformed", `the model ${route.model} answered without calling the tool it was given; pick a model with tool calling`);
      }
      return { toolChoice, calls: calls.length, callsInContent: fromContent !== null, seconds: (Date.now() - started) / 1000 };
    }
    const { failure } = result;
    if (toolChoice === "required" && failure.kind === "status" && failure.hint === "tool_choice_rejected") continue;
    throw failureError(route, failure);
  }
  throw new ModelCallError("malformed", `the server at ${route.apiBase} rejects tool_choice "required" and "auto"; pick a server or model with tool calling`);
}

function failureError(route: ChatRoute, failure: AttemptFailure): ModelCallError {
  switch (failure.kind) {
    case "status":
      return (
        hintError(route, failure.status, failure.hint) ??
        (failure.status === 429 || failure.status >= 500 ? serverError(route, `HTTP ${failure.status}`, 0) : statusError(route, failure.status, failure.code))
      );
    case "network":
      return networkError(route, failure.reason);
    case "aborted":
      return timeoutError(route, null);
    case "malformed":
      return malformedError(route, failure.detail);
    case "stream_error":
      return malformedError(route, "an error event came instead of an answer");
    case "too_large":
      return tooLargeError(route, failure.limitBytes);
  }
}

/** The model ids the server lists at `/models`, sorted; throws ModelCallError when it cannot say. */
export async function listModels(route: ChatRoute, timeoutMs: number): Promise<string[]> {
  const mod = await loadOpenAI();
  const { client } = makeRouteClient(mod, route, globalThis.fetch);
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ timeout: timeoutMs, maxRetries: 0 })) ids.push(model.id);
    return [...new Set(ids)].sort();
  } catch (error) {
    if (error instanceof mod.APIError && typeof (error as { status?: unknown }).status === "number") {
      throw statusError(route, (error as { status: number }).status, null);
    }
    throw networkError(route, "no answer from /models");
  }
}
