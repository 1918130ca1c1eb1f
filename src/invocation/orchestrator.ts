// The model tool loop of one invocation (SPEC §5): build the request, ask the model, validate the
// batch (batch-validation.ts), run its calls in order (call-runner.ts serves each and says what
// it came to; the conversation and the counters stay here), and stop on a terminal call or one
// of the §5.4 limits (one model request, counted and traced, is model-round.ts's). Bad model
// behaviour becomes tool messages or a `failed` end whose reason the caller raises as AIError;
// only bugs and broken infrastructure (a frame port that throws, a model port that throws
// something other than ModelCallError) are thrown.
//
// Counter rules beyond §5.4's wording: a response with tool calls resets the empty-response
// count; only a valid batch resets the invalid-batch count; any successful call clears the
// remembered failure. The deadline covers model and frame time (deadline.ts).

import type { InvocationEnd, InvocationEvent, InvocationStats } from "../invocation-record.js";
import type { ChatMessage, ExchangeRef, ModelPort, ModelResponse, ToolCall, ToolSpec } from "../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import type { StopSignal } from "../stop-signal.js";
import { validateBatch, type ParsedCall } from "./batch-validation.js";
import { Deadline, stoppedEnd } from "./deadline.js";
import { countToolCall, newInvocationStats } from "./invocation-stats.js";
import { MAX_EMPTY_RESPONSES_IN_A_ROW, MAX_IDENTICAL_FAILURES_IN_A_ROW, MAX_INVALID_BATCHES_IN_A_ROW, READ_CODE_PERMISSION } from "../defaults.js";
import type { InvocationServices, InvocationSettings } from "./ports.js";
import { BATCH_REJECTED, EARLIER_CALL_FAILED, canonicalJson, emptyResponseReminder, initialMessages, toolResultContent, type ToolResult } from "./prompt.js";
import { offeredToolSpecs, toolContext } from "./tools.js";
import { DEFAULT_PROFILE_REF, deniedInBatch, denialReason, type Denial } from "./permissions.js";
import { runCall, type CallOutcome } from "./call-runner.js";
import { askModel, type EventBody, type RoundContext } from "./model-round.js";

export type { InvocationEnd, InvocationEvent, InvocationStats } from "../invocation-record.js";
export type { InvocationSettings } from "./ports.js";
export type { PauseRequest } from "../bridge/protocol.js";

export interface InvocationArgs extends InvocationServices {
  /** Names this invocation in trace events. */
  id: string;
  request: PauseRequest;
  settings: InvocationSettings;
  model: ModelPort;
  signal?: StopSignal;
  onEvent?: (event: InvocationEvent) => void;
  /** Clock in ms since epoch; injectable for deadline tests. */
  now?: () => number;
}

/** What the loop does after a response or a call: go on, or end the invocation. */
type Step = { next: "continue" } | { next: "end"; end: InvocationEnd };

const CONTINUE: Step = { next: "continue" };
const endWith = (end: InvocationEnd): Step => ({ next: "end", end });
const failed = (reason: string): InvocationEnd => ({ status: "failed", reason });

export async function runInvocation(args: InvocationArgs): Promise<{ end: InvocationEnd; stats: InvocationStats }> {
  const loop = new InvocationLoop(args);
  try {
    return await loop.run();
  } finally {
    loop.dispose();
  }
}

class InvocationLoop {
  private readonly stats = newInvocationStats();
  private readonly now: () => number;
  private readonly started: number;
  private readonly deadline: Deadline;
  private readonly tools: ToolSpec[];
  private readonly messages: ChatMessage[];
  private readonly usedCallIds = new Set<string>();
  private emptyInARow = 0;
  private invalidInARow = 0;
  /** The last failing call (by name and arguments), how often in a row, and its message. */
  private lastFailure: { key: string; count: number; message: string } | null = null;
  private sentUpTo = 0;
  /** Where the journal keeps the answer whose calls run now (SPEC §11.2). */
  private exchange: ExchangeRef | undefined;
  /** Set once the outcome is out: a request still ending after it is counted, not traced. */
  private ended = false;
  /** The profile's permissions, less those of tools nobody here can serve. */
  private readonly permissions: ReadonlySet<string>;
  private readonly roundContext: RoundContext;

  constructor(readonly args: InvocationArgs) {
    this.now = args.now ?? Date.now;
    this.started = this.now();
    this.deadline = new Deadline(this.started + args.settings.timeoutSeconds * 1000, args.signal, this.now);
    this.permissions = args.hostTools ? args.settings.permissions : new Set([...args.settings.permissions].filter((p) => p !== READ_CODE_PERMISSION));
    this.tools = offeredToolSpecs(toolContext(args.request, this.permissions, args.capabilities ?? null, args.mailbox ?? null));
    this.messages = initialMessages(args.request, this.permissions, args.mailbox?.status());
    this.roundContext = {
      id: args.id,
      model: args.model,
      deadline: this.deadline,
      stats: this.stats,
      tools: this.tools,
      signal: args.signal,
      now: this.now,
      timeoutSeconds: args.settings.timeoutSeconds,
      traced: () => Boolean(args.onEvent),
      emit: (event) => this.emit(event),
      ended: () => this.ended,
    };
  }

  async run(): Promise<{ end: InvocationEnd; stats: InvocationStats }> {
    const { request } = this.args;
    if (this.args.onEvent) this.emit({ type: "invocation_start", filename: request.location.file, line: request.location.line, mode: request.mode });
    let end: InvocationEnd | null = null;
    for (let round = 1; end === null; round += 1) end = await this.round(round);
    this.stats.invocation_seconds = (this.now() - this.started) / 1000;
    if (this.args.onEvent) this.emit({ type: "outcome", end });
    this.ended = true;
    return { end, stats: this.stats };
  }

  dispose(): void {
    this.deadline.dispose();
  }

  /** One model request and its batch; the end of the invocation, or null to ask again. */
  private async round(round: number): Promise<InvocationEnd | null> {
    const { maxRounds } = this.args.settings;
    if (round > maxRounds) {
      return failed(`the model made ${maxRounds} requests without finishing (max_rounds = ${maxRounds}); make the instruction simpler or raise max_rounds in aiython.toml`);
    }
    const response = await this.ask(round);
    if (!("message" in response)) return response;
    this.exchange = response.exchange;
    const step = await this.handleResponse(response.message.content, response.message.tool_calls ?? []);
    return step.next === "end" ? step.end : null;
  }

  /** Sends the conversation; the response, or the end a failed or stopped call means. */
  private ask(round: number): Promise<ModelResponse | InvocationEnd> {
    const newFrom = this.sentUpTo;
    this.sentUpTo = this.messages.length;
    return askModel(this.roundContext, round, this.messages, newFrom);
  }

  private async handleResponse(content: string | null, calls: ToolCall[]): Promise<Step> {
    if (calls.length === 0) return this.emptyResponse(content);
    this.emptyInARow = 0;
    this.messages.push({ role: "assistant", content, tool_calls: calls });
    const denial = deniedInBatch(calls, this.permissions);
    if (denial) return this.deny(calls, denial);
    const verdict = validateBatch(calls, {
      request: this.args.request,
      permissions: this.permissions,
      usedCallIds: this.usedCallIds,
      capabilities: this.args.capabilities ?? null,
      mailbox: this.args.mailbox ?? null,
    });
    for (const call of calls) if (typeof call.id === "string") this.usedCallIds.add(call.id);
    if (verdict.valid) {
      this.invalidInARow = 0;
      return this.runCalls(verdict.calls);
    }
    return this.rejectBatch(calls, verdict.problems);
  }

  private emptyResponse(content: string | null): Step {
    this.stats.empty_responses += 1;
    this.emptyInARow += 1;
    if (this.emptyInARow >= MAX_EMPTY_RESPONSES_IN_A_ROW) {
      return endWith(failed(`the model returned no tool call ${this.emptyInARow} times in a row; use a model that supports tool calling`));
    }
    this.messages.push({ role: "assistant", content: content ?? "" });
    this.messages.push({ role: "user", content: emptyResponseReminder(this.args.request.mode) });
    return CONTINUE;
  }

  private rejectBatch(calls: ToolCall[], problems: (string | null)[]): Step {
    this.stats.invalid_batches += 1;
    this.invalidInARow += 1;
    calls.forEach((call, i) => {
      const problem = problems[i];
      this.answer({ id: call.id, name: String(call.function?.name ?? "") }, problem === null ? BATCH_REJECTED : { status: "error", message: problem });
    });
    if (this.invalidInARow >= MAX_INVALID_BATCHES_IN_A_ROW) {
      const first = problems.find((problem) => problem !== null);
      return endWith(failed(`the model sent ${this.invalidInARow} invalid tool batches in a row (${first}); try a more capable model or a clearer instruction`));
    }
    return CONTINUE;
  }

  /** A call needs a permission the profile does not grant: nothing runs, the invocation ends (§9). */
  private deny(calls: ToolCall[], denial: Denial): Step {
    const reason = denialReason(denial, this.args.settings.profile ?? DEFAULT_PROFILE_REF);
    for (const call of calls) this.answer({ id: call.id, name: String(call.function?.name ?? "") }, { status: "skipped", message: reason });
    return endWith({ status: "failed", reason, permission: denial.permission });
  }

  private async runCalls(calls: ParsedCall[]): Promise<Step> {
    for (const [index, call] of calls.entries()) {
      if (this.args.onEvent) this.emit({ type: "tool_call", call_id: call.id, name: call.name, arguments: call.args });
      const step = this.afterCall(call, await runCall(this.args, this.deadline, call, this.exchange));
      if (step === "failed") {
        for (const rest of calls.slice(index + 1)) this.answer(rest, EARLIER_CALL_FAILED);
        return this.lastFailure && this.lastFailure.count >= MAX_IDENTICAL_FAILURES_IN_A_ROW ? this.repeatedFailure(call) : CONTINUE;
      }
      if (step !== null) return step;
    }
    return CONTINUE;
  }

  /** What a call's outcome means for the loop: its end, "failed" (the batch stops), or null (go on). */
  private afterCall(call: ParsedCall, outcome: CallOutcome): Step | "failed" | null {
    switch (outcome.kind) {
      case "stopped":
        return endWith(stoppedEnd(outcome.stopped, this.args.settings.timeoutSeconds, outcome.tool));
      case "end":
        countToolCall(this.stats, call.name, outcome.toolError);
        return endWith(outcome.end);
      case "denied":
        countToolCall(this.stats, call.name, true);
        this.answer(call, outcome.result);
        return this.deny([], outcome.denial);
      case "failed":
        countToolCall(this.stats, call.name, true);
        this.answer(call, outcome.result);
        this.rememberFailure(call, outcome.result.message);
        return "failed";
      case "ok":
        countToolCall(this.stats, call.name, false);
        this.lastFailure = null;
        this.answer(call, outcome.result);
        return outcome.end ? endWith(outcome.end) : null;
    }
  }

  private rememberFailure(call: ParsedCall, message: string): void {
    const key = `${call.name}:${canonicalJson(call.args)}`;
    const count = this.lastFailure?.key === key ? this.lastFailure.count + 1 : 1;
    this.lastFailure = { key, count, message };
  }

  private repeatedFailure(call: ParsedCall): Step {
    return endWith(failed(`the model repeated a failing ${call.name} call (${this.lastFailure?.message}); make the instruction or the expected type clearer`));
  }

  private answer(call: { id: string; name: string }, result: ToolResult): void {
    const content = toolResultContent(result);
    this.messages.push({ role: "tool", tool_call_id: call.id, content });
    if (this.args.onEvent) this.emit({ type: "tool_result", call_id: call.id, name: call.name, status: result.status, content });
  }

  private emit(event: EventBody): void {
    // Object.assign, not a spread: docs/architecture.md, "Memory per block".
    this.args.onEvent?.(Object.assign({}, event, { invocation: this.args.id, at: this.now() }) as InvocationEvent);
  }
}
