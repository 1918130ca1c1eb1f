// One non-streaming request to one route as a single POST through the keep-alive transport
// (http-transport.ts `post`), without the openai client: against a fast server the client's
// request building, WHATWG Response and header objects and its response parsing cost several
// times the request itself, and a block is one such request (SPEC §12). It sends what the client
// would send for the same request (the JSON body with the same keys in the same order, the
// bearer key or the placeholder, JSON content type) and reads the answer the way the client
// does, so run-attempt.ts's failures come out alike: a non-2xx status with the body's error
// code, a body that is not JSON under a JSON content type (malformed), text under any other type
// (normalise-response.ts judges it), dropped connections and aborts as fetch reports them.
// Streaming requests still go through the openai client (run-attempt.ts).

import { classifyTransportError, type AttemptFailure } from "./classify-failure.js";
import { safeProviderCode } from "./errors.js";
import type { Post, PostReply } from "./http-transport.js";
import { MODEL_CLIENT_DEFAULTS } from "../defaults.js";
import { normaliseCompletion, type Normalised } from "./normalise-response.js";
import { serverHint } from "./server-quirks.js";
import { plainJson } from "../canonical-json.js";
import type { AttemptResult, AttemptInput } from "./run-attempt.js";
import { Stopper } from "../stop-signal.js";
import { collectLargeGarbage } from "../large-garbage.js";

const MAX_TIMER_MS = 2 ** 31 - 1;
const ERROR_BODY_LIMIT = 8192;

/** Where a route's chat completions are posted: its base URL joined as the openai client joins it. */
export function completionsUrl(apiBase: string): URL {
  return new URL(apiBase.endsWith("/") ? `${apiBase}chat/completions` : `${apiBase}/chat/completions`);
}

export type PostAttemptInput = Omit<AttemptInput, "mod" | "routeClient" | "stream"> & { post: Post; url: URL };

export async function postAttempt(input: PostAttemptInput): Promise<AttemptResult> {
  const { route, request } = input;
  const controller = new Stopper(); // not an AbortController: see stop-signal.ts
  const onAbort = (): void => controller.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });
  if (input.signal?.aborted) controller.abort();
  // Timers fire at once beyond 2^31-1 ms, so a far deadline is clamped (about 24 days).
  const timer = setTimeout(onAbort, Math.min(Math.max(1, input.remainingMs), MAX_TIMER_MS));
  const body = requestBody(route.model, request, input.toolChoice);
  const requestBytes = Buffer.byteLength(body, "utf8");
  const headers = {
    accept: "application/json",
    "content-type": "application/json",
    "user-agent": "aiython",
    authorization: `Bearer ${route.apiKey ?? MODEL_CLIENT_DEFAULTS.placeholderApiKey}`,
  };
  try {
    const reply = await input.post(input.url, headers, body, controller.signal);
    if (reply.status < 200 || reply.status > 299) return { ok: false, failure: statusFailure(reply), requestBytes };
    collectLargeGarbage(reply.text.length); // the body's bytes, now that its text is made
    const answer = parseAnswer(reply);
    // The settled promise of `post` keeps `reply` as long as the connection's listeners live: the
    // text, read now, is not kept with it (large-garbage.ts).
    reply.text = "";
    if ("failure" in answer) return { ok: false, failure: answer.failure, requestBytes };
    if (!answer.ok) return { ok: false, failure: { kind: "malformed", detail: answer.detail }, requestBytes };
    return { ok: true, answer, requestBytes };
  } catch (err) {
    if (controller.signal.aborted) return { ok: false, failure: { kind: "aborted" }, requestBytes };
    const failure = classifyTransportError(err);
    if (failure === null) throw err;
    return { ok: false, failure, requestBytes };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * The JSON body: the model, the messages and (tool_choice "required" with no tools is an error on
 * OpenAI; neither is sent then) the tools and tool_choice, in that order. The tools' text is
 * plainJson's, made once for a run's fixed tool lists; the bytes are JSON.stringify's of the
 * whole object.
 */
export function requestBody(model: string, request: PostAttemptInput["request"], toolChoice: PostAttemptInput["toolChoice"]): string {
  if (request.tools.length === 0) return JSON.stringify({ model, messages: request.messages });
  if (typeof model !== "string" || typeof toolChoice !== "string") return JSON.stringify({ model, messages: request.messages, tools: request.tools, tool_choice: toolChoice });
  return `{"model":${JSON.stringify(model)},"messages":${JSON.stringify(request.messages)},"tools":${plainJson(request.tools)},"tool_choice":${JSON.stringify(toolChoice)}}`;
}

/** A 2xx answer: JSON under a JSON media type (empty or 204: nothing), else the text itself. */
function parseAnswer(reply: PostReply): Normalised | { failure: AttemptFailure } {
  if (reply.status === 204) return normaliseCompletion(null);
  const mediaType = reply.headers.get("content-type")?.split(";")[0]?.trim();
  if (!(mediaType?.includes("application/json") || mediaType?.endsWith("+json"))) return normaliseCompletion(reply.text);
  if (reply.headers.get("content-length") === "0") return normaliseCompletion(undefined);
  try {
    return normaliseCompletion(JSON.parse(reply.text));
  } catch {
    return { failure: { kind: "malformed", detail: "the body is not valid JSON" } };
  }
}

/** A non-2xx answer: its status, headers and the error code its body names; the body goes no further. */
function statusFailure(reply: PostReply): AttemptFailure {
  let code: unknown;
  try {
    code = (JSON.parse(reply.text) as { error?: { code?: unknown } } | null)?.error?.code;
  } catch {
    code = undefined;
  }
  return { kind: "status", status: reply.status, headers: reply.headers, code: safeProviderCode(code), hint: serverHint(reply.status, reply.text.slice(0, ERROR_BODY_LIMIT)) };
}
