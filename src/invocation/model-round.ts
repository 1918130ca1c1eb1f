// One model request of an invocation (SPEC §5.4): the conversation sent with the offered tools
// under the invocation's deadline, the response counted and traced, and every HTTP attempt of it
// counted and traced as it ends (SPEC §11); a failure or a stop becomes the invocation's end. What
// a response means for the loop is the orchestrator's (orchestrator.ts).

import type { InvocationEnd, InvocationEvent, InvocationStats } from "../invocation-record.js";
import { ModelCallError, type AttemptObserver, type ChatMessage, type ModelPort, type ModelResponse, type ToolSpec } from "../model-port.js";
import type { StopSignal } from "../stop-signal.js";
import { isStopped, stoppedEnd, type Deadline, type Stopped } from "./deadline.js";
import { countAttempt, countResponse } from "./invocation-stats.js";

/** An event without the fields `emit` adds. */
export type EventBody = InvocationEvent extends infer E ? (E extends InvocationEvent ? Omit<E, "invocation" | "at"> : never) : never;

/** What a round needs of its invocation. */
export interface RoundContext {
  /** Names the invocation (the request's origin, SPEC §11). */
  id: string;
  model: ModelPort;
  deadline: Deadline;
  /** The caller's stop, if it has one. */
  signal?: StopSignal;
  now: () => number;
  timeoutSeconds: number;
  stats: InvocationStats;
  tools: ToolSpec[];
  /** Whether anyone listens: the events' copies are made only for a listener. */
  traced(): boolean;
  emit(event: EventBody): void;
  /** True once the outcome is out: a request still ending after it is counted, not traced. */
  ended(): boolean;
}

/** Sends `messages` (those from `newFrom` on are new to the trace); the response, or the end a failed or stopped call means. */
export async function askModel(ctx: RoundContext, round: number, messages: ChatMessage[], newFrom: number): Promise<ModelResponse | InvocationEnd> {
  // The event's copies of the new messages and the tool names are made only for a listener.
  if (ctx.traced()) ctx.emit({ type: "model_request", round, messages: messages.slice(newFrom), message_count: messages.length, tools: ctx.tools.map((t) => t.function.name) });
  let response: ModelResponse | Stopped;
  try {
    const request = { messages: [...messages], tools: ctx.tools, toolChoice: "required" as const };
    const options = {
      signal: ctx.deadline.signal,
      deadline: ctx.deadline.at,
      attempts: attemptObserver(ctx, round),
      origin: { invocation: ctx.id, round },
      holdDeadline: () => ctx.deadline.hold(),
    };
    response = await ctx.deadline.race(() => ctx.model.complete(request, options));
  } catch (error) {
    if (!(error instanceof ModelCallError)) throw error;
    ctx.emit({ type: "model_error", round, kind: error.kind, message: error.message });
    if (error.kind === "budget") return { status: "failed", reason: error.message, budget: true };
    if (ctx.signal?.aborted || error.kind === "cancelled") return stoppedEnd("cancelled", ctx.timeoutSeconds);
    if (error.kind === "timeout" || ctx.now() >= ctx.deadline.at) return stoppedEnd("timeout", ctx.timeoutSeconds);
    return { status: "failed", reason: error.message };
  }
  if (isStopped(response)) return stoppedEnd(response.stopped, ctx.timeoutSeconds);
  countResponse(ctx.stats, response);
  if (ctx.traced()) {
    const { content, tool_calls } = response.message;
    ctx.emit({
      type: "model_response",
      round,
      content,
      tool_calls: tool_calls ?? [],
      usage: response.usage,
      request_bytes: response.requestBytes,
      provider_seconds: response.providerSeconds,
      route: response.route,
    });
  }
  return response;
}

/** Counts and traces every HTTP request of this round (SPEC §11). */
function attemptObserver(ctx: RoundContext, round: number): AttemptObserver {
  return {
    sent: (attempt) => {
      countAttempt(ctx.stats, attempt);
      if (ctx.ended() || !ctx.traced()) return;
      ctx.emit({
        type: "model_attempt",
        round,
        attempt: attempt.attempt,
        route: attempt.route,
        server: attempt.server,
        status: attempt.status,
        outcome: attempt.outcome,
        request_bytes: attempt.requestBytes,
        ...(attempt.usage ? { usage: attempt.usage } : {}),
        started_at: attempt.startedAt,
        seconds: attempt.seconds,
        cost_usd: attempt.costUsd ?? null,
      });
    },
  };
}
