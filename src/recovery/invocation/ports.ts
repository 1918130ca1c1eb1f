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

// ---- One invocation (SPEC §5): what the bridge sends when a thread pauses, and what the
// orchestrator (src/recovery/orchestrator.ts) returns. The caller turns a `failed` end into the
// terminal `fail` op, which raises AIError(reason) at the block's line.

export interface SourceWindow {
  file: string;
  start_line: number;
  end_line: number;
  source: string;
}

export interface PauseRequest {
  mode: "syntax" | "recovery";
  /** e.g. "tickets.py:1" (AI block) or "tickets.py:c3" (checkpoint). */
  block_id: string;
  /** The block or statement text, verbatim. */
  statement: string;
  location: { file: string; line: number; column: number; end_line: number; end_column: number; function: string | null };
  /** Assignment target name, or null. */
  target: string | null;
  /** e.g. "Literal['bug', 'billing']"; null means no annotation (Any). */
  output_type: string | null;
  output_schema: Record<string, unknown> | null;
  requires_result: boolean;
  code_context: SourceWindow;
  /** Descriptors or small values of the names the block text mentions (§5.1). */
  related_objects: unknown[];
  frame_objects: unknown[];
  /** Profile prompt, then directive prompts, in order. */
  hints: { prompts: string[] };
  recovery?: {
    exception_type: string;
    message: string;
    origin: { file: string; line: number };
    attempt: number;
    retry_allowed: boolean;
    target: string | null;
    origin_context?: SourceWindow;
  };
}

export interface InvocationSettings {
  /** Model calls per invocation (`max_rounds`, §7). */
  maxRounds: number;
  /** Seconds per invocation, model and tool time included (`timeout`, §7). */
  timeoutSeconds: number;
  /** Granted permissions (§7); only `execute_code` matters to the core tools. */
  permissions: ReadonlySet<string>;
}

export type RecoverAction = "complete" | "retry" | "reraise";

export type InvocationEnd =
  | { status: "finished"; action?: RecoverAction }
  | { status: "failed"; reason: string; missing_capability?: string };

/** Fields every trace event carries: the invocation id and a timestamp (ms since epoch). */
interface EventBase {
  invocation: string;
  at: number;
}

/**
 * Trace events (§11 `--trace`), one per model request, model response, tool call, tool result and
 * outcome. They hold conversation content but never a credential: the orchestrator never sees one.
 */
export type InvocationEvent =
  | (EventBase & {
      type: "model_request";
      round: number;
      /** Messages appended since the previous request (all of them on round 1). */
      messages: ChatMessage[];
      message_count: number;
      tools: string[];
    })
  | (EventBase & {
      type: "model_response";
      round: number;
      content: string | null;
      tool_calls: ToolCall[];
      usage?: TokenUsage;
      request_bytes: number;
      provider_seconds: number;
      route: string;
    })
  | (EventBase & { type: "tool_call"; call_id: string; name: string; arguments: Record<string, unknown> })
  | (EventBase & { type: "tool_result"; call_id: string; name: string; status: "ok" | "error" | "skipped"; content: string })
  | (EventBase & { type: "outcome"; end: InvocationEnd });
