// The core frame tools of SPEC §5.2: names, which are offered to a pause, the JSON Schemas shown
// to the model, and the static schemas batch validation compiles (once per process, with ajv).
//
// One builder makes both schemas. The validation schema is the widest form of each tool (every
// outcome kind, every action, both frames) so its errors are only about shape; the pause-specific
// rules (outcomes.ts, batch-validation.ts) then answer with messages that say why and what is
// valid. The offered schema is narrowed to what this pause accepts, which keeps requests small and
// lets a model get it right the first time.

import type { ToolSpec } from "../../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { EXECUTE_CODE_PERMISSION, INSPECT_DEPTH, INSPECT_LIMIT, MAX_RESULT_ID_LENGTH } from "../../defaults.js";
import { OUTCOME_KINDS, offeredOutcomeKinds, type OutcomeContext, type OutcomeKind } from "./outcomes.js";
import { isMailboxTool, MAILBOX_DESCRIPTIONS, MAILBOX_TOOLS, mailboxToolParameters, mailboxToolUnavailable } from "./mailbox-tools.js";
import type { MailboxPort } from "./ports.js";

export const TOOL_NAMES = ["evaluate", "execute", "get_binding", "set_binding", "inspect", "get_frame_code", "frames", "finish", "recover", ...MAILBOX_TOOLS] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const RECOVER_ACTIONS = ["complete", "retry", "reraise"] as const;
const FRAMES = ["active", "origin"] as const;

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export function isTerminal(name: ToolName): name is "finish" | "recover" {
  return name === "finish" || name === "recover";
}

/** Tools whose result can be named by a `reference` outcome (§5.2). */
export function producesValue(name: ToolName): boolean {
  return name === "evaluate" || name === "get_binding";
}

export interface ToolContext extends OutcomeContext {
  /** SPEC §8: the mailbox of a joined thread or task, or null (no mailbox tools). */
  mailbox: MailboxPort | null;
}

export function toolContext(request: PauseRequest, permissions: ReadonlySet<string>, mailbox: MailboxPort | null = null): ToolContext {
  return { request, executeCode: permissions.has(EXECUTE_CODE_PERMISSION), mailbox };
}

/** Why a known tool is not offered to this pause, or null when it is. */
export function unavailableReason(name: ToolName, ctx: ToolContext): string | null {
  const mode = ctx.request.mode;
  if (isMailboxTool(name)) return mailboxToolUnavailable(name, ctx.mailbox);
  if (name === "finish" && mode !== "syntax") return `tool "finish" ends AI blocks only; in recovery mode end with "recover"`;
  if (name === "recover" && mode !== "recovery") return `tool "recover" is for recovery mode only; end this AI block with "finish"`;
  if ((name === "evaluate" || name === "execute") && !ctx.executeCode) {
    return `tool "${name}" needs the execute_code permission, which is not granted (permissions in aiython.toml)`;
  }
  return null;
}

export function offeredToolNames(ctx: ToolContext): ToolName[] {
  return TOOL_NAMES.filter((name) => unavailableReason(name, ctx) === null);
}

type Schema = Record<string, unknown>;

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

const str = (description?: string): Schema => ({ type: "string", ...(description ? { description } : {}) });
const resultId: Schema = { type: "string", maxLength: MAX_RESULT_ID_LENGTH };
const handle: Schema = { type: "string", pattern: "^object-[0-9]+$" };

function outcomeSchema(kinds: readonly OutcomeKind[]): Schema {
  const properties: Record<string, Schema> = { kind: { type: "string", enum: [...kinds] } };
  const has = (kind: OutcomeKind) => kinds.includes(kind);
  if (has("literal")) properties.value = { description: "literal: JSON value, never evaluated" };
  if (has("expression")) properties.code = str("expression: Python, evaluated");
  if (has("reference") || has("handle")) properties.id = str("reference: result_id or call id; handle: object-N");
  if (has("error")) {
    properties.reason = str("error: why it cannot be done");
    properties.missing_capability = str();
  }
  return object(properties, ["kind"]);
}

interface Variant {
  outcomeKinds: readonly OutcomeKind[];
  finishKinds: readonly OutcomeKind[];
  actions: readonly string[];
  frames: readonly string[];
}

const DESCRIPTIONS: Record<ToolName, string> = {
  ...MAILBOX_DESCRIPTIONS,
  evaluate: "Evaluate a Python expression in the frame; returns its descriptor.",
  execute: "Execute Python statements in the frame.",
  get_binding: "Descriptor of a local or global name.",
  set_binding: "Bind a name to an existing object (type-checked).",
  inspect: "Bounded structure of an object.",
  get_frame_code: "Source of the paused frame (active) or, in recovery, the raising one (origin).",
  frames: "Traceback project frames with their locals.",
  finish: "Terminal: the AI block's outcome.",
  recover: "Terminal: decide the failed statement.",
};

function parameters(name: ToolName, v: Variant): Schema {
  if (isMailboxTool(name)) return mailboxToolParameters(name);
  switch (name) {
    case "evaluate":
      return object({ code: str(), result_id: resultId }, ["code"]);
    case "execute":
      return object({ code: str() }, ["code"]);
    case "get_binding":
      return object({ name: str(), result_id: resultId }, ["name"]);
    case "set_binding":
      return object({ name: str(), handle }, ["name", "handle"]);
    case "inspect":
      return object(
        {
          handle,
          depth: { type: "integer", minimum: INSPECT_DEPTH.min, maximum: INSPECT_DEPTH.max },
          limit: { type: "integer", minimum: INSPECT_LIMIT.min, maximum: INSPECT_LIMIT.max },
        },
        ["handle"],
      );
    case "get_frame_code":
      // With one frame (syntax mode) there is nothing to choose; validation still knows `frame`.
      return object(v.frames.length > 1 ? { frame: { type: "string", enum: [...v.frames] } } : {});
    case "frames":
      return object({});
    case "finish":
      return object({ outcome: outcomeSchema(v.finishKinds) }, ["outcome"]);
    case "recover": {
      const properties: Record<string, Schema> = { action: { type: "string", enum: [...v.actions] } };
      if (v.outcomeKinds.length > 0) properties.outcome = outcomeSchema(v.outcomeKinds);
      properties.explanation = { type: "string" };
      return object(properties, ["action"]);
    }
  }
}

const WIDEST: Variant = { outcomeKinds: OUTCOME_KINDS, finishKinds: OUTCOME_KINDS, actions: RECOVER_ACTIONS, frames: FRAMES };

/** The static schema batch validation checks a call's arguments against. */
export function validationSchema(name: ToolName): Schema {
  return parameters(name, WIDEST);
}

/** The tool list of this pause's requests, narrowed to what the pause accepts. */
export function offeredToolSpecs(ctx: ToolContext): ToolSpec[] {
  const recovery = ctx.request.mode === "recovery";
  const variant: Variant = {
    outcomeKinds: offeredOutcomeKinds("recover", ctx),
    finishKinds: offeredOutcomeKinds("finish", ctx),
    actions: ctx.request.recovery?.retry_allowed === false ? ["complete", "reraise"] : RECOVER_ACTIONS,
    frames: recovery ? FRAMES : ["active"],
  };
  return offeredToolNames(ctx).map((name) => ({
    type: "function",
    function: { name, description: DESCRIPTIONS[name], parameters: parameters(name, variant) },
  }));
}
