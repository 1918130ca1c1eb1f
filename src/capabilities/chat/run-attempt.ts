// One HTTP request to one route through the openai client, streaming or not, bounded by the time
// left before the deadline. Returns the normalised answer or a classified failure; the caller
// decides about retries. The request body is measured as it leaves (via the client's `fetch`
// hook, per response, so requests in flight on one client at once keep their own counts) so
// `requestBytes` is the real byte count, not an estimate.
//
// `parallel_tool_calls` is deliberately not sent: OpenAI already defaults it to true, and several
// OpenAI-compatible servers reject the parameter or reject it next to `tool_choice: "required"`,
// while the protocol works the same with one call per response.

import { classifyFailure, type AttemptFailure } from "./classify-failure.js";
import type { OpenAIModuleType } from "./load-openai.js";
import { MODEL_CLIENT_DEFAULTS } from "../../defaults.js";
import { normaliseCompletion, StreamAssembler, type Normalised } from "./normalise-response.js";
import type { ModelRequest } from "../../model-port.js";
import type { ChatRoute } from "./types.js";

export type AttemptResult =
  | { ok: true; answer: Extract<Normalised, { ok: true }>; requestBytes: number }
  | { ok: false; failure: AttemptFailure };

const MAX_TIMER_MS = 2 ** 31 - 1;

/** An openai client for one route, and the size of the body that brought each response. */
export interface RouteClient {
  client: InstanceType<OpenAIModuleType["OpenAI"]>;
  sentBytes: WeakMap<Response, number>;
}

function bodyBytes(body: unknown): number {
  if (typeof body === "string") return Buffer.byteLength(body, "utf8");
  if (body instanceof Uint8Array) return body.byteLength;
  if (body instanceof ArrayBuffer) return body.byteLength;
  return 0;
}

/** An openai client for one route (made once per run, SPEC §12) that measures every body it sends. */
export function makeRouteClient(mod: OpenAIModuleType, route: ChatRoute, baseFetch: typeof fetch): RouteClient {
  const sentBytes = new WeakMap<Response, number>();
  const measuringFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const bytes = bodyBytes(init?.body);
    const response = await baseFetch(url, init);
    sentBytes.set(response, bytes);
    return response;
  };
  const client = new mod.OpenAI({
    apiKey: route.apiKey ?? MODEL_CLIENT_DEFAULTS.placeholderApiKey,
    baseURL: route.apiBase,
    // Retries are ours (SPEC §5.4), deadline-aware and route-aware.
    maxRetries: 0,
    fetch: measuringFetch,
    // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID / OPENAI_ADMIN_KEY from the environment:
    // the client would send the ids as headers to whatever server the route names, and an admin
    // key has no business in a chat client.
    adminAPIKey: null,
    organization: null,
    project: null,
    // OPENAI_LOG=debug would print request bodies and raw provider error bodies (SPEC §9).
    logLevel: "off",
  });
  return { client, sentBytes };
}

export interface AttemptInput {
  mod: OpenAIModuleType;
  routeClient: RouteClient;
  route: ChatRoute;
  request: ModelRequest;
  stream: boolean;
  /** Time left before the deadline, ms; the attempt aborts itself when it runs out. */
  remainingMs: number;
  signal?: AbortSignal;
}

export async function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { routeClient, route, request } = input;
  const { client } = routeClient;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  input.signal?.addEventListener("abort", onAbort, { once: true });
  if (input.signal?.aborted) controller.abort();
  // Timers fire at once beyond 2^31-1 ms, so a far deadline is clamped (about 24 days).
  const remaining = Math.min(Math.max(1, input.remainingMs), MAX_TIMER_MS);
  const timer = setTimeout(onAbort, remaining);
  const requestOptions = { signal: controller.signal, timeout: remaining, maxRetries: 0 };
  const body = {
    model: route.model,
    messages: request.messages,
    // tool_choice "required" with no tools is an error on OpenAI; send neither in that case.
    ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: request.toolChoice } : {}),
  };
  try {
    let answer: Normalised;
    let response: Response;
    if (input.stream) {
      const { data: stream, response: streamed } = await client.chat.completions
        .create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions)
        .withResponse();
      response = streamed;
      const assembler = new StreamAssembler();
      for await (const chunk of stream) assembler.add(chunk);
      // The client's stream iterator ends quietly when aborted; a cut stream is not an answer.
      if (controller.signal.aborted) return { ok: false, failure: { kind: "aborted" } };
      answer = assembler.finish();
    } else {
      const { data: completion, response: answered } = await client.chat.completions.create(body, requestOptions).withResponse();
      response = answered;
      answer = normaliseCompletion(completion);
    }
    if (!answer.ok) return { ok: false, failure: { kind: "malformed", detail: answer.detail } };
    return { ok: true, answer, requestBytes: routeClient.sentBytes.get(response) ?? 0 };
  } catch (err) {
    if (controller.signal.aborted) return { ok: false, failure: { kind: "aborted" } };
    const failure = classifyFailure(err, input.mod);
    if (failure === null) throw err;
    return { ok: false, failure };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}
