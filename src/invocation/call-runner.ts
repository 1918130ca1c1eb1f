// One validated call of a batch (SPEC §5.2, §9): the error outcome that ends the block without
// asking the frame, the `--approve` question, where the call is served (the mailbox, the
// code-reading tools, a capability, or the paused frame), and what its result means for the tool
// loop of orchestrator.ts, which owns the conversation and the counters this file reports into.

import type { InvocationEnd, InvocationEvent, InvocationStats, RecoverAction } from "../invocation-record.js";
import type { ExchangeRef, ToolCall } from "../model-port.js";
import type { OpArguments, OpName, Outcome } from "../bridge/protocol.js";
import type { ParsedCall } from "./batch-validation.js";
import { isStopped, type Deadline, type StopReason } from "./deadline.js";
import { countToolCall } from "./invocation-stats.js";
import { MAX_ERROR_REASON_CHARS } from "../defaults.js";
import type { ToolResult } from "./prompt.js";
import { isHostTool } from "./tools.js";
import { isCapabilityTool, runCapabilityTool } from "./capability-tools.js";
import type { CapabilityPort } from "../capability-port.js";
import { guardDenial, type Denial } from "./permissions.js";
import { DENIED_BY_USER, hasEffects, journaledEffect } from "./effects.js";
import { isMailboxTool, runMailboxTool } from "./mailbox-tools.js";
import type { InvocationArgs } from "./orchestrator.js";

/** What the loop does after a response or a call: go on, or end the invocation. */
export type Step = { next: "continue" } | { next: "end"; end: InvocationEnd };
/** An event without the fields `emit` adds. */
export type EventBody = InvocationEvent extends infer E ? (E extends InvocationEvent ? Omit<E, "invocation" | "at"> : never) : never;

export const endWith = (end: InvocationEnd): Step => ({ next: "end", end });

/** What a call needs of the tool loop that runs it (orchestrator.ts's InvocationLoop). */
export interface CallLoop {
  readonly args: InvocationArgs;
  readonly stats: InvocationStats;
  readonly deadline: Deadline;
  /** Where the journal keeps the answer whose calls are running. */
  readonly exchange: ExchangeRef | undefined;
  answer(call: { id: string; name: string }, result: ToolResult): void;
  rememberFailure(call: ParsedCall, message: string): void;
  forgetFailure(): void;
  stopEnd(stopped: StopReason): InvocationEnd;
  deny(calls: ToolCall[], denial: Denial): Step;
  emit(event: EventBody): void;
}

/** Runs one validated call: the invocation's end, "failed" (the batch stops), or null (go on). */
export async function runCall(loop: CallLoop, call: ParsedCall): Promise<Step | "failed" | null> {
  if (loop.args.onEvent) loop.emit({ type: "tool_call", call_id: call.id, name: call.name, arguments: call.args });
  const outcome = call.args.outcome as Outcome | undefined;
  if (call.name === "finish" && outcome?.kind === "error") {
    // §5.2: the block fails with AIError(reason); the frame is not asked.
    countToolCall(loop.stats, call.name, false);
    const end: InvocationEnd = { status: "failed", reason: outcome.reason.slice(0, MAX_ERROR_REASON_CHARS) };
    if (outcome.missing_capability !== undefined) end.missing_capability = outcome.missing_capability;
    return endWith(end);
  }
  if (loop.args.approval && hasEffects(call)) {
    const approved = await loop.deadline.race(() => loop.args.approval!.approve({ name: call.name, args: call.args, request: loop.args.request }));
    if (isStopped(approved)) return endWith(loop.stopEnd(approved.stopped));
    if (!approved) return refused(loop, call, DENIED_BY_USER);
  }
  const effect = loop.args.effects && journaledEffect(call) ? await startEffect(loop, call) : null;
  if (effect !== null && !effect.run) return refused(loop, call, { status: "error", error: "UncertainEffect", message: effect.message });
  const { mailbox } = loop.args;
  const result = mailbox && isMailboxTool(call.name) ? runMailboxTool(call.name, call.args, mailbox) : await loop.deadline.race(() => perform(loop, call));
  if (isStopped(result)) return endWith(loop.stopEnd(result.stopped));
  if (effect?.run) effect.ended();
  if ("end" in result) {
    countToolCall(loop.stats, call.name, true);
    return endWith(result.end);
  }
  countToolCall(loop.stats, call.name, !result.ok);
  if (!result.ok && result.error.type === "PermissionDenied") {
    // The source guard refused a write the profile does not allow (write_filesystem): §9 ends the invocation.
    loop.answer(call, { status: "error", error: result.error.type, message: result.error.message });
    return loop.deny([], guardDenial(call.name, result.error.message));
  }
  if (!result.ok) {
    loop.answer(call, { status: "error", error: result.error.type, message: result.error.message });
    loop.rememberFailure(call, result.error.message);
    return "failed";
  }
  loop.forgetFailure();
  loop.answer(call, { status: "ok", result: result.value });
  if (call.name === "finish") return endWith({ status: "finished" });
  if (call.name === "recover") return endWith({ status: "finished", action: call.args.action as RecoverAction });
  return null;
}

/** The journal's word on a call with effects (SPEC §11.2): go on, or not at all. */
function startEffect(loop: CallLoop, call: ParsedCall) {
  const { file, line } = loop.args.request.location;
  return (loop.args.effects as NonNullable<CallLoop["args"]["effects"]>).starting({ tool: call.name, callId: call.id, block: `${file}:${line}`, exchange: loop.exchange });
}

/** A frame op, a code-reading tool (host side), or a capability tool (SPEC §10) through the capability port. */
function perform(loop: CallLoop, call: ParsedCall) {
  const { capabilities, frame, hostTools } = loop.args;
  if (isHostTool(call.name) && hostTools) return hostTools.run(call.name, call.args);
  if (!isCapabilityTool(call.name)) return frame.op(call.name as OpName, opArguments(call));
  const context = { port: capabilities as CapabilityPort, frame, callId: call.id, signal: loop.deadline.signal, deadline: loop.deadline.at };
  return runCapabilityTool(call.name, call.args, context);
}

/** A call that did not run (refused by the user, or an uncertain effect): a tool error, and the batch stops. */
function refused(loop: CallLoop, call: ParsedCall, result: ToolResult & { status: "error" }): "failed" {
  countToolCall(loop.stats, call.name, true);
  loop.answer(call, result);
  loop.rememberFailure(call, result.message);
  return "failed";
}

/**
 * Arguments of the frame op for a validated call: its own plus `call_id` (§5.2 references).
 * Batch validation has checked them against the tool's schema, which is what OpArguments types.
 */
function opArguments(call: ParsedCall): OpArguments[OpName] {
  const args: Record<string, unknown> = { ...call.args, call_id: call.id };
  // JSON.parse cannot tell 3.0 from 3; the bridge re-reads literal values from the raw text so
  // that a float stays a float (SPEC §6: int is not float).
  if (call.name === "finish" || call.name === "recover") args.raw_arguments = call.raw;
  // outcomes.ts: `none` in recover means the same as no outcome; the frame never sees it.
  if (call.name === "recover" && (args.outcome as Outcome | undefined)?.kind === "none") delete args.outcome;
  return args as unknown as OpArguments[OpName];
}
