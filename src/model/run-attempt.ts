// One HTTP request to one route through the openai client, streaming or not, bounded by the time
// left before the deadline. Returns the normalised answer or a classified failure; the caller
// decides about retries. The request body is measured as it leaves (via the client's `fetch`
// hook, into the attempt's own sink found through its async context, so requests in flight on
// one client at once keep their own counts, answered or not) so `requestBytes` is the real byte
// count, not an estimate.
//
// `parallel_tool_calls` is deliberately not sent: OpenAI already defaults it to true, and several
// OpenAI-compatible servers reject the parameter or reject it next to `tool_choice: "required"`,
// while the protocol works the same with one call per response.

import { AsyncLocalStorage } from "node:async_hooks";
import { classifyFailure, type AttemptFailure } from "./classify-failure.js";
import { clientOptions, type OpenAIModuleType } from "./load-openai.js";
import { MODEL_CLIENT_DEFAULTS } from "../defaults.js";
import { normaliseCompletion, StreamAssembler, type Normalised } from "./normalise-response.js";
import type { ModelRequest } from "../model-port.js";
import { errorBodyText, serverHint, type ToolChoice } from "./server-quirks.js";
import type { ChatRoute } from "./types.js";
import type { StopSignal } from "../stop-signal.js";

export type AttemptResult = { ok: true; answer: Extract<Normalised, { ok: true }>; requestBytes: number } | { ok: false; failure: AttemptFailure; requestBytes: number };

const MAX_TIMER_MS = 2 ** 31 - 1;

/** An openai client for one route, made once per run (SPEC §12). */
export interface RouteClient {
  client: InstanceType<OpenAIModuleType["OpenAI"]>;
}

/** What one attempt sent and got: its body's size, and the start of an error answer's body (server-quirks.ts). */
interface BodySink {
  bytes: number;
  errorBody: string | null;
}

/** The sink of the attempt whose async context a request is sent from. */
const attemptSink = new AsyncLocalStorage<BodySink>();

function bodyBytes(body: unknown): number {
  if (typeof body === "string") return Buffer.byteLength(body, "utf8");
  if (body instanceof Uint8Array) return body.byteLength;
  if (body instanceof ArrayBuffer) return body.byteLength;
  return 0;
}

/** An openai client for one route (made once per run, SPEC §12) that measures every body it sends. */
export function makeRouteClient(mod: OpenAIModuleType, route: ChatRoute, baseFetch: typeof fetch): RouteClient {
  const measuringFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const sink = attemptSink.getStore();
    if (sink) sink.bytes = bodyBytes(init?.body);
    const response = await baseFetch(url, init);
    if (sink) sink.errorBody = await errorBodyText(response);
    return response;
  };
  const client = new mod.OpenAI({ ...clientOptions(route.apiKey ?? MODEL_CLIENT_DEFAULTS.placeholderApiKey, route.apiBase), fetch: measuringFetch });
  return { client };
}

export interface AttemptInput {
  mod: OpenAIModuleType;
  routeClient: RouteClient;
  route: ChatRoute;
  request: ModelRequest;
  /** What this route is sent as tool_choice (server-quirks.ts: "auto" after a server rejected "required"). */
  toolChoice: ToolChoice;
  stream: boolean;
  /** Time left before the deadline, ms; the attempt aborts itself when it runs out. */
  remainingMs: number;
  signal?: StopSignal;
}

export function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const sink: BodySink = { bytes: 0, errorBody: null };
  return attemptSink.run(sink, () => attempt(input, sink));
}

async function attempt(input: AttemptInput, sink: BodySink): Promise<AttemptResult> {
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
    ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: input.toolChoice } : {}),
  };
  try {
    let answer: Normalised;
    if (input.stream) {
      const stream = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
      const assembler = new StreamAssembler();
      for await (const chunk of stream) assembler.add(chunk);
      // The client's stream iterator ends quietly when aborted; a cut stream is not an answer.
      if (controller.signal.aborted) return { ok: false, failure: { kind: "aborted" }, requestBytes: sink.bytes };
      answer = assembler.finish();
    } else {
      answer = normaliseCompletion(await client.chat.completions.create(body, requestOptions));
    }
    if (!answer.ok) return { ok: false, failure: { kind: "malformed", detail: answer.detail }, requestBytes: sink.bytes };
    return { ok: true, answer, requestBytes: sink.bytes };
  } catch (err) {
    if (controller.signal.aborted) return { ok: false, failure: { kind: "aborted" }, requestBytes: sink.bytes };
    const failure = classifyFailure(err, input.mod);
    if (failure === null) throw err;
    if (failure.kind === "status") failure.hint = serverHint(failure.status, sink.errorBody);
    return { ok: false, failure, requestBytes: sink.bytes };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener("abort", onAbort);
  }
}
