// Shapes the model client speaks. They mirror the orchestrator's ModelPort (src/recovery/ports.ts)
// member for member so the client satisfies that port structurally; src/capabilities never
// imports src/recovery (dependencies point one way, STYLE "layout"). Keep the two in step.

export interface ToolCallLike {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessageLike =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCallLike[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolSpecLike {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequestLike {
  messages: ChatMessageLike[];
  tools: ToolSpecLike[];
  toolChoice: "required";
}

export interface TokenUsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cached_tokens?: number;
}

export interface ModelResponseLike {
  message: { content: string | null; tool_calls: ToolCallLike[] };
  usage?: TokenUsageLike;
  /** Byte length of the JSON body of the request that produced this answer, as sent. */
  requestBytes: number;
  /** Seconds from the first attempt to the answer: retries, backoff and fallbacks included. */
  providerSeconds: number;
  /** Id of the route that answered, e.g. "openai/gpt-4.1-mini". */
  route: string;
}

export interface ModelCallOptionsLike {
  signal?: AbortSignal;
  /** Absolute deadline of the whole invocation, ms since the epoch (same clock as `now`). */
  deadline: number;
}

export interface ModelPortLike {
  complete(request: ModelRequestLike, options: ModelCallOptionsLike): Promise<ModelResponseLike>;
}

/**
 * One endpoint to try. A list of routes falls through to the next one after a 429 that used up
 * its retries or asked to wait past the deadline (SPEC §5.4, §7 `model` as a list).
 */
export interface RouteLike {
  /** Shown in messages and returned as `route`, e.g. "openai/gpt-4.1-mini". */
  id: string;
  /** Model name sent to the provider, e.g. "gpt-4.1-mini". */
  model: string;
  /** Base URL of the OpenAI-compatible API, usually ending in /v1. */
  apiBase: string;
  /** The key itself; null for servers that need none (ollama, local servers). Never printed. */
  apiKey: string | null;
  /** Name of the environment variable the key came from, so messages can say what to check. */
  apiKeyEnv?: string | null;
  /** Use the streaming API for this route (overrides the client option). */
  stream?: boolean;
}

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ModelClientOptions {
  /** The fetch the openai client uses underneath (tests inject one); default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Waits between retries; default a timer that stops early on abort. */
  sleep?: SleepFn;
  /** Clock for deadlines and Retry-After dates, ms since the epoch; default Date.now. */
  now?: () => number;
  /** Retries per route after the first attempt, for 429, 5xx and dropped connections. */
  maxRetries?: number;
  /** Default for routes that do not say: use the streaming API. */
  stream?: boolean;
  /** Random source for backoff jitter in [0, 1); tests pin it. */
  random?: () => number;
}
