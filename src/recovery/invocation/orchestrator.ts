// The model tool loop of one invocation (SPEC §5): build the request, ask the model, validate the
// batch (batch-validation.ts), run its calls in order against the paused frame, and stop on a
// terminal call or one of the §5.4 limits. Bad model behaviour becomes tool messages or a
// `failed` end whose reason the caller raises as AIError; only bugs and broken infrastructure
// (a frame port that throws, a non-ModelCallError from the model port) are thrown.
//
// Counter rules beyond §5.4's wording: a response with tool calls resets the empty-response
// count; only a valid batch resets the invalid-batch count; any successful call clears the
// remembered failure. The deadline covers model and frame time: each model call and frame op is
// raced against it (and against the caller's abort signal), and the model port is given the
// absolute deadline plus a signal that aborts when the invocation stops waiting.

import type { FramePort, InvocationEnd, InvocationEvent, InvocationSettings, ModelCallError, ModelPort, PauseRequest, RecoverAction, ToolCall } from "./ports.js";
import { validateBatch, type ParsedCall } from "./batch-validation.js";
import { countResponse, countToolCall, newInvocationStats, type InvocationStats } from "./invocation-stats.js";
import { MAX_EMPTY_RESPONSES_IN_A_ROW, MAX_ERROR_REASON_CHARS, MAX_IDENTICAL_FAILURES_IN_A_ROW, MAX_INVALID_BATCHES_IN_A_ROW } from "./limits.js";
import { BATCH_REJECTED, EARLIER_CALL_FAILED, canonicalJson, emptyResponseReminder, initialMessages, toolResultContent, type ToolResult } from "./prompt.js";
import { offeredToolSpecs, toolContext } from "./tools.js";
import type { Outcome } from "./outcomes.js";

export type { InvocationEnd, InvocationEvent, InvocationSettings, PauseRequest } from "./ports.js";
export type { InvocationStats } from "./invocation-stats.js";

export interface InvocationArgs {
  /** Names this invocation in trace events. */
  id: string;
  request: PauseRequest;
  settings: InvocationSettings;
  model: ModelPort;
  frame: FramePort;
  signal?: AbortSignal;
  onEvent?: (event: InvocationEvent) => void;
  /** Clock in ms since epoch; injectable for deadline tests. */
  now?: () => number;
}

type Step = { next: "continue" } | { next: "end"; end: InvocationEnd };
type Stop = { stopped: "timeout" | "cancelled" };
/** An event without the fields `emit` adds. */
type EventBody = InvocationEvent extends infer E ? (E extends InvocationEvent ? Omit<E, "invocation" | "at"> : never) : never;

const CONTINUE: Step = { next: "continue" };
const failed = (reason: string): InvocationEnd => ({ status: "failed", reason });
const endWith = (end: InvocationEnd): Step => ({ next: "end", end });
/** setTimeout fires at once for delays beyond this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runInvocation(args: InvocationArgs): Promise<{ end: InvocationEnd; stats: InvocationStats }> {
  const { request, settings, model, frame } = args;
  const now = args.now ?? Date.now;
  const started = now();
  const deadline = started + settings.timeoutSeconds * 1000;
  const stats = newInvocationStats();
  const tools = offeredToolSpecs(toolContext(request, settings.permissions));
  const toolNames = tools.map((tool) => tool.function.name);
  const messages = initialMessages(request, settings.permissions);
  const usedCallIds = new Set<string>();
  const stopper = new AbortController();
  const onOuterAbort = () => stopper.abort();
  args.signal?.addEventListener("abort", onOuterAbort, { once: true });
  let emptyInARow = 0;
  let invalidInARow = 0;
  let lastFailure: { key: string; count: number } | null = null;
  let sentUpTo = 0;

  const emit = (event: EventBody) => args.onEvent?.({ ...event, invocation: args.id, at: now() } as InvocationEvent);
  const stopReason = (): Stop["stopped"] => (args.signal?.aborted ? "cancelled" : "timeout");
  const stopEnd = (stopped: Stop["stopped"]): InvocationEnd =>
    stopped === "cancelled"
      ? failed("cancelled")
      : failed(`the model did not finish within the ${settings.timeoutSeconds} s timeout; raise timeout in aiython.toml or make the instruction simpler`);

  /** Races work against the deadline and the abort signal; on either, aborts `stopper`. */
  async function guarded<T>(work: () => Promise<T>): Promise<T | Stop> {
    if (args.signal?.aborted || stopper.signal.aborted || now() >= deadline) return { stopped: stopReason() };
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    const stop = new Promise<Stop>((resolve) => {
      timer = setTimeout(() => {
        resolve({ stopped: stopReason() });
        stopper.abort();
      }, Math.min(deadline - now(), MAX_TIMER_MS));
      onStop = () => resolve({ stopped: stopReason() });
      stopper.signal.addEventListener("abort", onStop, { once: true });
    });
    try {
      return await Promise.race([work(), stop]);
    } finally {
      clearTimeout(timer);
      stopper.signal.removeEventListener("abort", onStop!);
    }
  }

  function answer(call: { id: string; name: string }, result: ToolResult): void {
    const content = toolResultContent(result);
    messages.push({ role: "tool", tool_call_id: call.id, content });
    emit({ type: "tool_result", call_id: call.id, name: call.name, status: result.status, content });
  }

  async function runCalls(calls: ParsedCall[]): Promise<Step> {
    for (const [index, call] of calls.entries()) {
      emit({ type: "tool_call", call_id: call.id, name: call.name, arguments: call.args });
      const outcome = call.args.outcome as Outcome | undefined;
      if (call.name === "finish" && outcome?.kind === "error") {
        // §5.2: the block fails with AIError(reason); the frame is not asked.
        countToolCall(stats, call.name, false);
        const reason = outcome.reason.slice(0, MAX_ERROR_REASON_CHARS);
        const end: InvocationEnd = { status: "failed", reason };
        if (outcome.missing_capability !== undefined) end.missing_capability = outcome.missing_capability;
        return endWith(end);
      }
      const result = await guarded(() => frame.op(call.name, opArguments(call)));
      if ("stopped" in result) return endWith(stopEnd(result.stopped));
      countToolCall(stats, call.name, !result.ok);
      if (result.ok) {
        lastFailure = null;
        answer(call, { status: "ok", result: result.value });
        if (call.name === "finish") return endWith({ status: "finished" });
        if (call.name === "recover") return endWith({ status: "finished", action: call.args.action as RecoverAction });
        continue;
      }
      answer(call, { status: "error", error: result.error.type, message: result.error.message });
      for (const rest of calls.slice(index + 1)) answer(rest, EARLIER_CALL_FAILED);
      const key = `${call.name}:${canonicalJson(call.args)}`;
      lastFailure = lastFailure?.key === key ? { key, count: lastFailure.count + 1 } : { key, count: 1 };
      if (lastFailure.count >= MAX_IDENTICAL_FAILURES_IN_A_ROW) {
        return endWith(failed(`the model repeated a failing ${call.name} call (${result.error.message}); make the instruction or the expected type clearer`));
      }
      return CONTINUE;
    }
    return CONTINUE;
  }

  async function handleResponse(content: string | null, calls: ToolCall[]): Promise<Step> {
    if (calls.length === 0) {
      stats.empty_responses += 1;
      emptyInARow += 1;
      if (emptyInARow >= MAX_EMPTY_RESPONSES_IN_A_ROW) {
        return endWith(failed(`the model returned no tool call ${emptyInARow} times in a row; use a model that supports tool calling`));
      }
      messages.push({ role: "assistant", content: content ?? "" });
      messages.push({ role: "user", content: emptyResponseReminder(request.mode) });
      return CONTINUE;
    }
    emptyInARow = 0;
    messages.push({ role: "assistant", content, tool_calls: calls });
    const verdict = validateBatch(calls, { request, permissions: settings.permissions, usedCallIds });
    for (const call of calls) if (typeof call.id === "string") usedCallIds.add(call.id);
    if (verdict.valid) {
      invalidInARow = 0;
      return runCalls(verdict.calls);
    }
    stats.invalid_batches += 1;
    invalidInARow += 1;
    calls.forEach((call, i) => {
      const problem = verdict.problems[i];
      answer({ id: call.id, name: String(call.function?.name ?? "") }, problem === null ? BATCH_REJECTED : { status: "error", message: problem });
    });
    if (invalidInARow >= MAX_INVALID_BATCHES_IN_A_ROW) {
      const first = verdict.problems.find((problem) => problem !== null);
      return endWith(failed(`the model sent ${invalidInARow} invalid tool batches in a row (${first}); try a more capable model or a clearer instruction`));
    }
    return CONTINUE;
  }

  async function loop(): Promise<InvocationEnd> {
    for (let round = 1; ; round += 1) {
      if (round > settings.maxRounds) {
        return failed(`the model made ${settings.maxRounds} requests without finishing (max_rounds = ${settings.maxRounds}); make the instruction simpler or raise max_rounds in aiython.toml`);
      }
      emit({ type: "model_request", round, messages: messages.slice(sentUpTo), message_count: messages.length, tools: toolNames });
      sentUpTo = messages.length;
      let response;
      try {
        response = await guarded(() => model.complete({ messages: [...messages], tools, toolChoice: "required" }, { signal: stopper.signal, deadline }));
      } catch (err) {
        if (!(err instanceof Error) || err.name !== "ModelCallError") throw err;
        const kind = (err as ModelCallError).kind;
        if (args.signal?.aborted || kind === "cancelled") return stopEnd("cancelled");
        if (kind === "timeout" || now() >= deadline) return stopEnd("timeout");
        return failed(err.message);
      }
      if ("stopped" in response) return stopEnd(response.stopped);
      countResponse(stats, response);
      const calls = response.message.tool_calls ?? [];
      emit({
        type: "model_response",
        round,
        content: response.message.content,
        tool_calls: calls,
        usage: response.usage,
        request_bytes: response.requestBytes,
        provider_seconds: response.providerSeconds,
        route: response.route,
      });
      const step = await handleResponse(response.message.content, calls);
      if (step.next === "end") return step.end;
    }
  }

  try {
    const end = await loop();
    stats.invocation_seconds = (now() - started) / 1000;
    emit({ type: "outcome", end });
    return { end, stats };
  } finally {
    args.signal?.removeEventListener("abort", onOuterAbort);
  }
}

/** Arguments of the frame op for a validated call: its own plus `call_id` (§5.2 references). */
function opArguments(call: ParsedCall): Record<string, unknown> {
  const args: Record<string, unknown> = { ...call.args, call_id: call.id };
  // JSON.parse cannot tell 3.0 from 3; the bridge re-reads literal values from the raw text so
  // that a float stays a float (SPEC §6: int is not float).
  if (call.name === "finish" || call.name === "recover") args.raw_arguments = call.raw;
  // outcomes.ts: `none` in recover means the same as no outcome; the frame never sees it.
  if (call.name === "recover" && (args.outcome as Outcome | undefined)?.kind === "none") delete args.outcome;
  return args;
}
