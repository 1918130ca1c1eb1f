// Batch validation (SPEC §5.3): every tool call of one model response is checked before any of
// them runs. A bad call is data, not an exception: the verdict carries one message per failing
// call, naming the rule and what would be valid, and the orchestrator answers every call.
//
// Decisions beyond the spec's list:
// - Every call with a problem gets its own error message (not just the first), so a model can fix
//   them all in one retry; the calls without a problem get "skipped".
// - A call's arguments are read strictly (call-arguments.ts: blank is `{}`; duplicate keys, inexact
//   numbers and too deep nesting are refused) and checked against the tool's schema there.
// - A `result_id` may not equal another call's id in the batch: a reference to it would be
//   ambiguous.

import type { CapabilityPort } from "../capability-port.js";
import type { ToolCall } from "../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { checkOutcome } from "./outcomes.js";
import { checkArguments, parseArguments } from "./call-arguments.js";
import type { MailboxPort } from "./ports.js";
import { isTerminal, isToolName, offeredToolNames, producesValue, toolContext, unavailableReason, type ToolContext, type ToolName } from "./tools.js";
import { collectLargeGarbage, LARGE_GARBAGE_CHARS } from "../large-garbage.js";

export interface ParsedCall {
  id: string;
  name: ToolName;
  args: Record<string, unknown>;
  /** The arguments exactly as the model sent them (the bridge re-reads literal values from it). */
  raw: string;
}

export type BatchVerdict =
  | { valid: true; calls: ParsedCall[] }
  /** `problems[i]` is the message for call i, or null when call i itself was fine. */
  | { valid: false; problems: (string | null)[] };

export interface BatchContext {
  request: PauseRequest;
  permissions: ReadonlySet<string>;
  /** Call ids of earlier responses of this invocation. */
  usedCallIds: ReadonlySet<string>;
  /** SPEC §10's capabilities of this invocation (run_plan, jobs, resume_job), if any. */
  capabilities?: CapabilityPort | null;
  /** SPEC §8: the joined participant's mailbox, if any (the mailbox tools). */
  mailbox?: MailboxPort | null;
}

const quote = (value: unknown) => JSON.stringify(value);
const quoteList = (items: readonly string[]) => items.map(quote).join(", ");

export function validateBatch(calls: readonly ToolCall[], batch: BatchContext): BatchVerdict {
  const ctx = toolContext(batch.request, batch.permissions, batch.capabilities ?? null, batch.mailbox ?? null);
  const problems: (string | null)[] = [];
  const parsed: (ParsedCall | null)[] = [];
  const idsInBatch = new Set<string>();
  for (const [index, call] of calls.entries()) {
    const result = checkCall(call, index, calls, parsed, idsInBatch, batch, ctx);
    if (typeof call.id === "string") idsInBatch.add(call.id);
    problems.push(typeof result === "string" ? result : null);
    parsed.push(typeof result === "string" ? null : result);
  }
  if (problems.every((problem) => problem === null)) return { valid: true, calls: parsed as ParsedCall[] };
  return { valid: false, problems };
}

function checkCall(
  call: ToolCall,
  index: number,
  calls: readonly ToolCall[],
  earlier: readonly (ParsedCall | null)[],
  idsInBatch: ReadonlySet<string>,
  batch: BatchContext,
  ctx: ToolContext,
): ParsedCall | string {
  const id = call.id;
  if (typeof id !== "string" || id === "") return "tool call id is empty; every call needs a unique id";
  if (batch.usedCallIds.has(id)) return `tool call id ${quote(id)} was used by an earlier response of this invocation; use a new id`;
  if (idsInBatch.has(id)) return `tool call id ${quote(id)} appears twice in this response; every call needs a unique id`;

  const name = call.function?.name;
  // The offered list is only for the message of a call that names a tool it may not use.
  if (typeof name !== "string" || !isToolName(name)) return `unknown tool ${quote(name)}; available tools: ${quoteList(offeredToolNames(ctx))}`;
  const unavailable = unavailableReason(name, ctx);
  if (unavailable) return `${unavailable}; available tools: ${quoteList(offeredToolNames(ctx))}`;

  const text = call.function.arguments;
  if (typeof text !== "string") return `${name}: arguments must be a JSON object string`;
  const parsedArgs = parseArguments(text);
  if (!parsedArgs.ok) return `${name}: ${parsedArgs.message}`;
  const args = parsedArgs.value;
  const schemaProblem = checkArguments(name, args);
  if (schemaProblem) return `${name}: ${schemaProblem}`;

  const problem = checkRules(name, args, index, calls, earlier, ctx);
  if (problem) return `${name}: ${problem}`;
  dropLargeLiteral(args, text.length);
  return { id, name, args, raw: text };
}

/**
 * A literal outcome's value goes to the bridge in the raw arguments (call-runner.ts), never on its
 * own; once checked, a large one is not kept a second time here while that text crosses
 * (large-garbage.ts). Events name it by its size instead.
 */
function dropLargeLiteral(args: Record<string, unknown>, size: number): void {
  if (size < LARGE_GARBAGE_CHARS || !isLiteral(args.outcome)) return;
  // No local here holds the old outcome while it is collected.
  args.outcome = { kind: "literal", value: `(a literal of ${size} characters of arguments, sent as the model wrote it)` };
  collectLargeGarbage(size);
}

function isLiteral(outcome: unknown): boolean {
  return (outcome as { kind?: unknown } | undefined)?.kind === "literal";
}

/** The pause-specific rules, for arguments that already match the tool's schema. */
function checkRules(
  name: ToolName,
  args: Record<string, unknown>,
  index: number,
  calls: readonly ToolCall[],
  earlier: readonly (ParsedCall | null)[],
  ctx: ToolContext,
): string | null {
  const request = ctx.request;
  if (typeof args.result_id === "string") {
    const resultId = args.result_id;
    if (resultId === "") return `result_id must not be empty; leave it out or choose a name like "r1"`;
    const clash = earlier.find((call) => call?.args.result_id === resultId);
    if (clash) return `result_id ${quote(resultId)} is already used by call ${quote(clash.id)} in this response; choose a unique one`;
    const sameAsId = calls.find((call, i) => i !== index && call.id === resultId);
    if (sameAsId) return `result_id ${quote(resultId)} equals the id of another call in this response, so a reference to it would be ambiguous; choose another`;
  }
  if (!isTerminal(name)) return null;
  if (index !== calls.length - 1) {
    return `${name} ends the invocation, so it must be the last call of the response; ${calls.length - 1 - index} call(s) follow it`;
  }
  if (name === "recover") {
    const action = args.action as string;
    if (action === "retry" && request.recovery?.retry_allowed !== true) {
      return `action "retry" is not allowed for this checkpoint (a compound statement, or the traceback passes through another project frame); valid actions: "complete", "reraise"`;
    }
    if (args.outcome === undefined) return null;
    if (action !== "complete") return `action ${quote(action)} takes no outcome; only "complete" takes one`;
  }
  const outcome = args.outcome as Record<string, unknown>;
  const outcomeProblem = checkOutcome(name, outcome, ctx);
  if (outcomeProblem) return outcomeProblem;
  if (outcome.kind === "reference") return checkReference(outcome.id as string, earlier);
  return null;
}

function checkReference(ref: string, earlier: readonly (ParsedCall | null)[]): string | null {
  const named = earlier.find((call) => call !== null && (call.id === ref || call.args.result_id === ref));
  if (named && producesValue(named.name)) return null;
  const valid = earlier.flatMap((call) => (call !== null && producesValue(call.name) ? [call.id, ...(typeof call.args.result_id === "string" ? [call.args.result_id] : [])] : []));
  const options =
    valid.length > 0
      ? `valid ids: ${quoteList(valid)}`
      : `no earlier call of this response produces a value; call evaluate or get_binding before finishing in the same response, or use kind "handle" with an object-N from an earlier result`;
  if (named) return `outcome reference ${quote(ref)} names a ${named.name} call, which produces no value; ${options}`;
  return `outcome reference ${quote(ref)} does not name an earlier evaluate or get_binding call of this response; ${options}`;
}
