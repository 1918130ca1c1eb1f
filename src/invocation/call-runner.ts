// One validated call of a batch (SPEC §5.2, §9): the error outcome that ends the block without
// asking the frame, the `--approve` question, the journal's record of a call with effects (SPEC
// §11.2: written before it runs; a resumed run's uncertain one does not run), and where the call
// is served (the mailbox, the code-reading tools, a capability, or the paused frame). What happened comes back as a
// CallOutcome; orchestrator.ts, which owns the conversation and the counters, decides what it
// means for the tool loop.

import type { CapabilityPort } from "../capability-port.js";
import { MAX_ERROR_REASON_CHARS } from "../defaults.js";
import type { InvocationEnd, RecoverAction } from "../invocation-record.js";
import type { ExchangeRef } from "../model-port.js";
import type { OpArguments, OpName, Outcome, PauseRequest } from "../bridge/protocol.js";
import type { ParsedCall } from "./batch-validation.js";
import { isStopped, type Deadline, type StopReason } from "./deadline.js";
import { isHostTool } from "./tools.js";
import { isCapabilityTool, runCapabilityTool } from "./capability-tools.js";
import { guardDenial, type Denial } from "./permissions.js";
import { DENIED_BY_USER, hasEffects, journaledEffect } from "./effects.js";
import { isMailboxTool, runMailboxTool } from "./mailbox-tools.js";
import type { EffectJournalPort, InvocationServices, InvocationSettings } from "./ports.js";
import type { ToolResult } from "./prompt.js";
import { startToolClock, toolTimeoutResult } from "./tool-clock.js";

/** What serves a call: the invocation's ports (orchestrator.ts's InvocationArgs has them all). */
export interface CallServices extends InvocationServices {
  request: PauseRequest;
  settings: Pick<InvocationSettings, "toolTimeoutSeconds">;
}

/**
 * What one call came to. `end`: the invocation ends (`toolError` says how the call is counted);
 * `stopped`: the deadline or a cancel came first (`tool`: while this frame op ran, and was interrupted); `denied`: the source guard refused a write the
 * profile does not allow (§9 ends the invocation); `failed`: a tool error, the batch stops; `ok`:
 * its value, and the end a terminal call means.
 */
export type CallOutcome =
  | { kind: "end"; end: InvocationEnd; toolError: boolean }
  | { kind: "stopped"; stopped: StopReason; tool?: string }
  | { kind: "denied"; result: ToolResult; denial: Denial }
  | { kind: "failed"; result: ToolResult & { status: "error" } }
  | { kind: "ok"; result: ToolResult; end: InvocationEnd | null };

/** Runs one validated call within the invocation's deadline; `exchange` is where the journal keeps the answer that asked for it. */
export async function runCall(services: CallServices, deadline: Deadline, call: ParsedCall, exchange?: ExchangeRef): Promise<CallOutcome> {
  const outcome = call.args.outcome as Outcome | undefined;
  if (call.name === "finish" && outcome?.kind === "error") {
    // §5.2: the block fails with AIError(reason); the frame is not asked.
    const end: InvocationEnd = { status: "failed", reason: outcome.reason.slice(0, MAX_ERROR_REASON_CHARS) };
    if (outcome.missing_capability !== undefined) end.missing_capability = outcome.missing_capability;
    return { kind: "end", end, toolError: false };
  }
  if (services.approval && hasEffects(call)) {
    const approved = await deadline.race(() => services.approval!.approve({ name: call.name, args: call.args, request: services.request }));
    if (isStopped(approved)) return { kind: "stopped", stopped: approved.stopped };
    if (!approved) return { kind: "failed", result: DENIED_BY_USER };
  }
  const effect = services.effects && journaledEffect(call) ? await startEffect(services, call, exchange) : null;
  if (effect !== null && !effect.run) return { kind: "failed", result: { status: "error", error: "UncertainEffect", message: effect.message } };
  const { mailbox } = services;
  if (mailbox && isMailboxTool(call.name)) return settle(call, runMailboxTool(call.name, call.args, mailbox));
  if (isHostTool(call.name) || isCapabilityTool(call.name)) {
    const result = await deadline.race(() => perform(services, deadline, call));
    if (isStopped(result)) return { kind: "stopped", stopped: result.stopped };
    if (effect?.run) effect.ended();
    return settle(call, result);
  }
  // A frame op: interrupted when it outlives tool_timeout or the deadline (SPEC §9, tool-clock.ts).
  const clock = startToolClock(deadline, services.settings.toolTimeoutSeconds);
  try {
    let sent = false;
    const result = await deadline.race(() => {
      sent = true;
      return services.frame.op(call.name as OpName, opArguments(call), clock.signal);
    });
    if (isStopped(result)) return sent ? { kind: "stopped", stopped: result.stopped, tool: call.name } : { kind: "stopped", stopped: result.stopped };
    if (effect?.run) effect.ended();
    if (!result.ok && result.error.type === "ToolInterrupted" && services.settings.toolTimeoutSeconds !== undefined) {
      return { kind: "failed", result: toolTimeoutResult(call.name, services.settings.toolTimeoutSeconds) };
    }
    return settle(call, result);
  } finally {
    clock.dispose();
  }
}

/** What a served call's result means: the end a capability asked for, a tool error, or its value. */
function settle(call: ParsedCall, result: Awaited<ReturnType<typeof perform>>): CallOutcome {
  if ("end" in result) return { kind: "end", end: result.end, toolError: true };
  if (!result.ok) {
    const error: ToolResult & { status: "error" } = { status: "error", error: result.error.type, message: result.error.message };
    if (result.error.type === "PermissionDenied") return { kind: "denied", result: error, denial: guardDenial(call.name, result.error.message) };
    return { kind: "failed", result: error };
  }
  const end: InvocationEnd | null =
    call.name === "finish" ? { status: "finished" } : call.name === "recover" ? { status: "finished", action: call.args.action as RecoverAction } : null;
  return { kind: "ok", result: { status: "ok", result: result.value }, end };
}

/** The journal's word on a call with effects (SPEC §11.2): go on, or not at all. */
function startEffect(services: CallServices, call: ParsedCall, exchange: ExchangeRef | undefined) {
  const { file, line } = services.request.location;
  return (services.effects as EffectJournalPort).starting({ tool: call.name, callId: call.id, block: `${file}:${line}`, exchange });
}

/** A code-reading tool (host side), or a capability tool (SPEC §10) through the capability port. */
function perform(services: CallServices, deadline: Deadline, call: ParsedCall) {
  const { capabilities, frame, hostTools } = services;
  if (isHostTool(call.name) && hostTools) return hostTools.run(call.name, call.args);
  if (!isCapabilityTool(call.name)) return frame.op(call.name as OpName, opArguments(call));
  const context = { port: capabilities as CapabilityPort, frame, callId: call.id, signal: deadline.abortSignal, deadline: deadline.at };
  return runCapabilityTool(call.name, call.args, context);
}

/**
 * Arguments of the frame op for a validated call: its own plus `call_id` (§5.2 references).
 * Batch validation has checked them against the tool's schema, which is what OpArguments types.
 */
function opArguments(call: ParsedCall): OpArguments[OpName] {
  // Object.assign, not a spread: docs/architecture.md, "Memory per block".
  const args: Record<string, unknown> = Object.assign({}, call.args, { call_id: call.id });
  // JSON.parse cannot tell 3.0 from 3; the bridge re-reads literal values from the raw text so
  // that a float stays a float (SPEC §6: int is not float).
  // The literal crosses once, in that text: the outcome goes without its value.
  if (call.name === "finish" || call.name === "recover") {
    args.raw_arguments = call.raw;
    const outcome = args.outcome as Outcome | undefined;
    if (outcome?.kind === "literal") args.outcome = { kind: "literal" };
  }
  // outcomes.ts: `none` in recover means the same as no outcome; the frame never sees it.
  if (call.name === "recover" && (args.outcome as Outcome | undefined)?.kind === "none") delete args.outcome;
  return args as unknown as OpArguments[OpName];
}
