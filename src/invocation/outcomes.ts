// Terminal outcomes (SPEC §5.2) and the rules that say which ones a pause accepts.
//
// The rules, decided from §4.2, §4.3 and §5 (batch validation enforces them; tools.ts narrows the
// schema shown to the model to the same set):
// - `finish` (syntax mode). A value kind (literal, expression, reference, handle) is accepted when
//   the block requires a result or has an assignment target; a statement block without a target
//   has nothing to receive a value, so it ends with `none` (effects go through execute /
//   set_binding). `none` is refused when `requires_result`. `error` is always accepted.
// - `recover` (recovery mode). An outcome only with action `complete`, and a value kind only when
//   the checkpoint's statement assigns one name (`recovery.target`). `none` is accepted and means
//   the same as omitting the outcome (the orchestrator drops it before the frame sees it).
//   `error` is refused: giving up is `reraise`.
// - `expression` additionally needs the `execute_code` permission.

import type { Outcome, PauseRequest } from "../bridge/protocol.js";

export type { Outcome };

export type OutcomeKind = Outcome["kind"];

export const OUTCOME_KINDS: readonly OutcomeKind[] = ["literal", "expression", "reference", "handle", "none", "error"];

const VALUE_KINDS: readonly OutcomeKind[] = ["literal", "expression", "reference", "handle"];

/** The fields each kind takes besides `kind`: exactly these (optional ones may be left out). */
const KIND_FIELDS: Record<OutcomeKind, { required: readonly string[]; optional: readonly string[] }> = {
  literal: { required: ["value"], optional: [] },
  expression: { required: ["code"], optional: [] },
  reference: { required: ["id"], optional: [] },
  handle: { required: ["id"], optional: [] },
  none: { required: [], optional: [] },
  error: { required: ["reason"], optional: ["missing_capability"] },
};

export const HANDLE_PATTERN = /^object-[0-9]+$/;

export type TerminalTool = "finish" | "recover";

export interface OutcomeContext {
  request: PauseRequest;
  executeCode: boolean;
}

function quoteList(items: readonly string[]): string {
  return items.map((item) => JSON.stringify(item)).join(", ");
}

/** Whether this pause has somewhere to put a value (see the header). */
export function takesValue(tool: TerminalTool, request: PauseRequest): boolean {
  return tool === "finish" ? request.requires_result || request.target !== null : (request.recovery?.target ?? null) !== null;
}

/** Every kind the terminal tool accepts in this pause, in OUTCOME_KINDS order. */
export function acceptedOutcomeKinds(tool: TerminalTool, ctx: OutcomeContext): OutcomeKind[] {
  const valueOk = takesValue(tool, ctx.request);
  return OUTCOME_KINDS.filter((kind) => {
    if (kind === "expression" && !ctx.executeCode) return false;
    if (VALUE_KINDS.includes(kind)) return valueOk;
    if (kind === "none") return tool === "recover" || !ctx.request.requires_result;
    return tool === "finish"; // error
  });
}

/** The kinds shown to the model: for `recover`, `none` is left out (omit the outcome instead). */
export function offeredOutcomeKinds(tool: TerminalTool, ctx: OutcomeContext): OutcomeKind[] {
  const kinds = acceptedOutcomeKinds(tool, ctx);
  return tool === "recover" ? kinds.filter((kind) => kind !== "none") : kinds;
}

/**
 * Checks an outcome whose shape already passed the tool's JSON Schema (so `kind` is one of
 * OUTCOME_KINDS and every present field has the right JSON type). Returns the problem, or null.
 */
export function checkOutcome(tool: TerminalTool, outcome: Record<string, unknown>, ctx: OutcomeContext): string | null {
  const kind = outcome.kind as OutcomeKind;
  const fields = KIND_FIELDS[kind];
  for (const field of fields.required) {
    if (!(field in outcome)) return `outcome kind "${kind}" needs the field "${field}"`;
  }
  const allowed = new Set(["kind", ...fields.required, ...fields.optional]);
  const extra = Object.keys(outcome).filter((field) => !allowed.has(field));
  if (extra.length > 0) {
    const takes = fields.required.length + fields.optional.length === 0 ? "takes no other field" : `takes only ${quoteList([...fields.required, ...fields.optional])}`;
    return `outcome kind "${kind}" ${takes}; remove ${quoteList(extra)}`;
  }
  if (kind === "error" && (outcome.reason as string).trim() === "") return `outcome kind "error" needs a non-empty "reason"`;
  if (kind === "handle" && !HANDLE_PATTERN.test(outcome.id as string)) {
    return `outcome kind "handle" needs an id like "object-3" taken from an earlier tool result; got ${JSON.stringify(outcome.id)} (for the value of a call in this response use kind "reference")`;
  }
  const accepted = acceptedOutcomeKinds(tool, ctx);
  if (accepted.includes(kind)) return null;
  const valid = `valid kinds here: ${quoteList(offeredOutcomeKinds(tool, ctx))}`;
  if (tool === "recover" && kind === "error") {
    return `recover cannot use outcome kind "error"; to give up, call recover with action "reraise" and an explanation`;
  }
  if (kind === "expression" && !ctx.executeCode) {
    return `outcome kind "expression" needs the execute_code permission, which is not granted (permissions in aiython.toml); ${valid}`;
  }
  if (kind === "none") {
    return `this block must produce a value (requires_result), so outcome kind "none" is not allowed; ${valid}`;
  }
  if (tool === "finish") {
    return `this block is a statement without a target, so it takes no value; end with {"kind":"none"} after making its effects, or {"kind":"error"}`;
  }
  return `this checkpoint's statement does not assign one name, so complete takes no outcome value; omit "outcome"`;
}
