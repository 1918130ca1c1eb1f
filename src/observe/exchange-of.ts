// What a model request is to the journal (SPEC §11): its canonical request JSON and key, and the
// stored form of an answer. The recording and replaying model ports both use these, so a request
// recorded by one run is found by the next.

import { canonicalJson, exchangeKey, exchangeRequestJson } from "../journal/index.js";
import type { ModelRequest, ModelResponse } from "../model-port.js";

export interface RouteName {
  /** The profile's primary route id, e.g. "openai/gpt-4.1-mini". */
  id: string;
  model: string;
}

export function requestKey(route: RouteName, request: ModelRequest): { key: string; requestJson: string } {
  const requestJson = exchangeRequestJson({
    route: route.id,
    model: route.model,
    messages: request.messages,
    tools: request.tools,
    parameters: { tool_choice: request.toolChoice },
  });
  return { key: exchangeKey(requestJson), requestJson };
}

/** The answer as stored: everything but the provider's timing, which a replay does not spend. */
export function responseJson(response: ModelResponse): string {
  return canonicalJson({ message: response.message, usage: response.usage, request_bytes: response.requestBytes, route: response.route });
}

/** The stored answer as a response; throws when it is not one aiython wrote (a damaged row). */
export function responseFromJson(json: string): ModelResponse {
  const stored = JSON.parse(json) as { message: ModelResponse["message"]; usage?: ModelResponse["usage"]; request_bytes: number; route: string };
  if (!wellFormed(stored)) throw new Error("not a stored answer");
  return {
    message: { content: stored.message.content ?? null, tool_calls: stored.message.tool_calls ?? [] },
    ...(stored.usage ? { usage: stored.usage } : {}),
    requestBytes: stored.request_bytes,
    providerSeconds: 0,
    route: stored.route,
    replayed: true,
  };
}

function wellFormed(stored: unknown): boolean {
  const { message, request_bytes, route, usage } = (stored ?? {}) as Record<string, unknown>;
  if (typeof message !== "object" || message === null || typeof request_bytes !== "number" || typeof route !== "string") return false;
  if (usage !== undefined && (typeof usage !== "object" || usage === null)) return false;
  const { content, tool_calls } = message as Record<string, unknown>;
  if (content !== undefined && content !== null && typeof content !== "string") return false;
  if (tool_calls === undefined) return true;
  return (
    Array.isArray(tool_calls) &&
    tool_calls.every((call) => {
      const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
      return typeof call === "object" && call !== null && typeof fn?.name === "string" && typeof fn.arguments === "string";
    })
  );
}

/** The block a request is about as the journal keys it: the stable message's "file:line" (project-relative), or null. */
export function blockKey(request: ModelRequest): string | null {
  const location = locationOf(request);
  return location ? `${location.file}:${location.line}` : null;
}

/** "tickets.py:9": the block a request is about, from its stable user message (§5.1). */
export function blockOf(request: ModelRequest, display: (file: string) => string): string {
  const location = locationOf(request);
  return location ? `${display(location.file)}:${location.line}` : "this block";
}

function locationOf(request: ModelRequest): { file: string; line: number } | null {
  const stable = request.messages.find((message) => message.role === "user");
  try {
    const location = (JSON.parse(stable?.content ?? "") as { location?: { file?: unknown; line?: unknown } }).location;
    if (typeof location?.file === "string" && typeof location.line === "number") return { file: location.file, line: location.line };
  } catch {
    // Not the orchestrator's JSON.
  }
  return null;
}
