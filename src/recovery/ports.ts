// The two ports the orchestrator depends on: the model (implemented in src/capabilities by the
// openai-backed client, or by a scripted fake in tests) and the paused frame (implemented by the
// bridge channel). Shapes follow OpenAI-compatible chat completions so the client can pass them
// through without translation. Nothing here imports an outside library.

export type ChatRole = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolSpec {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** Always "required" (SPEC §5). */
  toolChoice: "required";
}

export interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cached_tokens?: number;
}

export interface ModelResponse {
  message: { content: string | null; tool_calls: ToolCall[] };
  usage?: TokenUsage;
  /** Bytes of the JSON request body that was sent (for stats and the 6 KB budget). */
  requestBytes: number;
  /** Seconds spent waiting on the provider, retries included. */
  providerSeconds: number;
  /** Which route answered (after fallbacks), e.g. "openai/gpt-4.1-mini". */
  route: string;
}

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Absolute deadline (ms since epoch) of the whole invocation; requests and retries stop there. */
  deadline: number;
}

/** A model call failure the orchestrator turns into an AIError reason. `message` is safe to show. */
export class ModelCallError extends Error {
  readonly kind: "auth" | "not_found" | "rate_limited" | "server" | "network" | "timeout" | "malformed" | "cancelled" | "permission";
  constructor(kind: ModelCallError["kind"], message: string) {
    super(message);
    this.name = "ModelCallError";
    this.kind = kind;
  }
}

export interface ModelPort {
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}

export type FrameOpResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { type: string; message: string } };

/** Operations on one paused frame, served by the bridge on the frame's own thread. */
export interface FramePort {
  op(name: string, args: Record<string, unknown>): Promise<FrameOpResult>;
}
