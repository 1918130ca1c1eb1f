// Batch validation (SPEC §5.3): every tool call of one model response is checked before any of
// them runs. A bad call is data, not an exception: the verdict carries one message per failing
// call, naming the rule and what would be valid, and the orchestrator answers every call.
//
// Decisions beyond the spec's list:
// - Every call with a problem gets its own error message (not just the first), so a model can fix
//   them all in one retry; the calls without a problem get "skipped".
// - An empty or blank arguments string counts as `{}` (providers send it for tools without
//   parameters).
// - Duplicate keys in one JSON object are refused (JSON.parse would silently keep the last), and
//   so are numbers JSON.parse cannot keep exactly: out of range (1e400 → Infinity) or an integer
//   beyond 2^53 written without a fraction or exponent, and arguments nested deeper than
//   MAX_ARGUMENT_DEPTH (SPEC §9: an answer nests at least 128 levels; the bridge's JSON and type
//   checks recurse once per level, in the program's own thread).
// - A `result_id` may not equal another call's id in the batch: a reference to it would be
//   ambiguous.

import type { ErrorObject } from "ajv";
import type { CapabilityPort } from "../capability-port.js";
import type { ToolCall } from "../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { MAX_ARGUMENT_DEPTH } from "../defaults.js";
import { checkOutcome } from "./outcomes.js";
import { TOOL_VALIDATORS } from "./tool-validators.js";
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

/** Parses a call's arguments string strictly; see the header for what is refused. */
export function parseArguments(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  collectLargeGarbage(text.length); // the answer's body text, now that these arguments are taken from it
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `arguments are not valid JSON (${(err as Error).message}); send one JSON object (NaN and Infinity are not JSON)` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: `arguments must be a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` };
  }
  const problem = scanJsonText(text);
  return problem ? { ok: false, message: problem } : { ok: true, value: value as Record<string, unknown> };
}

/** Finds duplicate keys and inexact numbers in text that JSON.parse already accepted. */
function scanJsonText(text: string): string | null {
  const stack: { keys: Set<string> | null; expectKey: boolean }[] = [];
  const number = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return `arguments repeat the key ${quote(key)} in one object; send each key once`;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      number.lastIndex = i;
      const token = number.exec(text)![0];
      const n = Number(token);
      if (!Number.isFinite(n)) return `the number ${token} is out of range for JSON; send it as a string or compute it with code`;
      if (!/[.eE]/.test(token) && !Number.isSafeInteger(n)) {
        return `the integer ${token} is too large to pass exactly (beyond 2^53); send it as a string or compute it with code`;
      }
      i += token.length;
      continue;
    }
    if (c === "{" || c === "[") {
      if (stack.length >= MAX_ARGUMENT_DEPTH) {
        return `arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep; send a flatter value, or build it with code in the frame`;
      }
      stack.push(c === "{" ? { keys: new Set(), expectKey: true } : { keys: null, expectKey: false });
    } else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
    i += 1;
  }
  return null;
}

function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath === "" ? "arguments" : `argument ${quote(error.instancePath.slice(1).replaceAll("/", "."))}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${where}: missing required ${quote(params.missingProperty)}`;
    case "additionalProperties": {
      const schema = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(schema?.properties ?? {});
      return `${where}: unknown ${quote(params.additionalProperty)}; ${known.length > 0 ? `valid: ${quoteList(known)}` : "this takes no arguments"}`;
    }
    case "enum":
      return `${where} must be one of ${quoteList(params.allowedValues as string[])}`;
    case "pattern":
      return `${where} must be an object handle like "object-3"`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

function checkArguments(name: ToolName, args: Record<string, unknown>): string | null {
  const validate = TOOL_VALIDATORS[name];
  if (validate(args)) return null;
  return (validate.errors ?? []).map(describeSchemaError).join("; ");
}

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
