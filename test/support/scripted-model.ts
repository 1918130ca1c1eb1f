// A scripted fake ModelPort: answers each request with the next scripted step and records every
// request (deep-copied) with its call options, so tests can assert exactly what a model saw. Like
// the HTTP client, it reports each answered request to the call's attempt observer (one request
// per answer unless a step function reports its own; a thrown step sent none).

import type { ModelCallOptions, ModelPort, ModelRequest, ModelResponse, TokenUsage, ToolCall } from "../../src/model-port.js";

/** What one scripted turn produces: tool calls, a thrown error, or a function of the request. */
export type ScriptStep =
  | { calls: ToolCall[]; content?: string | null; usage?: TokenUsage }
  | { throws: Error }
  | ((request: ModelRequest, options: ModelCallOptions) => ModelResponse | Promise<ModelResponse>);

export interface RecordedRequest {
  request: ModelRequest;
  options: ModelCallOptions;
  /** Bytes of the JSON body an OpenAI-compatible client would send for this request. */
  bodyBytes: number;
}

/** The body an OpenAI-compatible chat completions client sends (model id included). */
export function requestBody(request: ModelRequest, model = "openai/gpt-4.1-mini"): string {
  return JSON.stringify({ model, messages: request.messages, tools: request.tools, tool_choice: request.toolChoice });
}

export function toolCall(id: string, name: string, args: Record<string, unknown> | string): ToolCall {
  return { id, type: "function", function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) } };
}

export class ScriptedModel implements ModelPort {
  readonly requests: RecordedRequest[] = [];
  private readonly steps: ScriptStep[];

  constructor(
    steps: ScriptStep[],
    private readonly providerSeconds = 0.25,
  ) {
    this.steps = [...steps];
  }

  get remaining(): number {
    return this.steps.length;
  }

  async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
    const copy = structuredClone(request);
    const bodyBytes = Buffer.byteLength(requestBody(copy));
    this.requests.push({ request: copy, options, bodyBytes });
    const step = this.steps.shift();
    if (step === undefined) throw new Error(`scripted model: no step left for request ${this.requests.length}`);
    if (typeof step === "function") {
      // A step that reports its own requests (retries, say) is taken at its word.
      let own = false;
      const watched = {
        ...options,
        attempts: {
          ...options.attempts,
          sent: (a: Parameters<NonNullable<NonNullable<ModelCallOptions["attempts"]>["sent"]>>[0]) => {
            own = true;
            options.attempts?.sent?.(a);
          },
        },
      };
      const response = await step(copy, watched);
      return own ? response : reported(response, options);
    }
    if ("throws" in step) throw step.throws;
    return reported(
      {
        message: { content: step.content ?? null, tool_calls: step.calls },
        usage: step.usage,
        requestBytes: bodyBytes,
        providerSeconds: this.providerSeconds,
        route: "openai/gpt-4.1-mini",
      },
      options,
    );
  }
}

function reported(response: ModelResponse, options: ModelCallOptions): ModelResponse {
  if (!response.replayed) {
    options.attempts?.sent?.({
      route: response.route,
      attempt: 1,
      requestBytes: response.requestBytes,
      ...(response.usage ? { usage: response.usage } : {}),
      status: 200,
      outcome: "answer",
      server: "scripted:0",
      startedAt: Date.now(),
      seconds: response.providerSeconds,
    });
  }
  return response;
}
