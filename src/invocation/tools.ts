// The core frame tools of SPEC §5.2: names, which are offered to a pause, the JSON Schemas shown
// to the model, and the static schemas batch validation checks arguments against (compiled by ajv
// in tool-validators.ts, or at build time for the built CLI).
//
// One builder makes both schemas. The validation schema is the widest form of each tool (every
// outcome kind, every action, both frames) so its errors are only about shape; the pause-specific
// rules (outcomes.ts, batch-validation.ts) then answer with messages that say why and what is
// valid. The offered schema is narrowed to what this pause accepts, which keeps requests small and
// lets a model get it right the first time.

import type { ToolSpec } from "../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { EXECUTE_CODE_PERMISSION, INSPECT_DEPTH, INSPECT_LIMIT, MAX_RESULT_ID_LENGTH } from "../defaults.js";
import { OUTCOME_KINDS, offeredOutcomeKinds, type OutcomeContext, type OutcomeKind } from "./outcomes.js";
import type { CapabilityPort } from "../capability-port.js";
import { CAPABILITY_TOOLS, capabilityToolDescription, capabilityToolParameters, capabilityToolUnavailable, isCapabilityTool } from "./capability-tools.js";
import { CODE_TOOL_DESCRIPTIONS, CODE_TOOL_NAMES, READ_CODE_PERMISSION, codeToolParameters, isCodeTool, speaksOfCode } from "./code-tools.js";
import { isMailboxTool, MAILBOX_DESCRIPTIONS, MAILBOX_TOOLS, mailboxToolParameters, mailboxToolUnavailable } from "./mailbox-tools.js";
import type { MailboxPort } from "./ports.js";
import { fixedValue } from "../canonical-json.js";

export const TOOL_NAMES = [
  "evaluate",
  "execute",
  "get_binding",
  "set_binding",
  "inspect",
  "get_frame_code",
  "frames",
  "finish",
  "recover",
  ...CODE_TOOL_NAMES,
  ...CAPABILITY_TOOLS,
  ...MAILBOX_TOOLS,
] as const;
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
  /** The read_code permission: the code-reading tools are offered. */
  readCode?: boolean;
  /** SPEC §10's capabilities for this invocation, or null without any (capability tools are not offered). */
  capabilities: CapabilityPort | null;
  /** SPEC §8: the mailbox of a joined thread or task, or null (no mailbox tools). */
  mailbox: MailboxPort | null;
}

export function toolContext(request: PauseRequest, permissions: ReadonlySet<string>, capabilities: CapabilityPort | null = null, mailbox: MailboxPort | null = null): ToolContext {
  return { request, executeCode: permissions.has(EXECUTE_CODE_PERMISSION), readCode: permissions.has(READ_CODE_PERMISSION), capabilities, mailbox };
}

/** Tools the host serves itself (not frame operations). */
export function isHostTool(name: ToolName): boolean {
  return isCodeTool(name);
}

/** Why a known tool is not offered to this pause, or null when it is. */
export function unavailableReason(name: ToolName, ctx: ToolContext): string | null {
  const mode = ctx.request.mode;
  if (isCapabilityTool(name)) return capabilityToolUnavailable(name, ctx.capabilities?.available() ?? null);
  if (isMailboxTool(name)) return mailboxToolUnavailable(name, ctx.mailbox);
  if (name === "finish" && mode !== "syntax") return `tool "finish" ends AI blocks only; in recovery mode end with "recover"`;
  if (name === "recover" && mode !== "recovery") return `tool "recover" is for recovery mode only; end this AI block with "finish"`;
  // §5.1: the paused frame's code is the request's code_context, and an AI block has no other frame.
  if (name === "get_frame_code" && mode !== "recovery") return `tool "get_frame_code" is for recovery mode only; the block's code is in code_context`;
  if ((name === "evaluate" || name === "execute") && !ctx.executeCode) {
    return `tool "${name}" needs the execute_code permission, which is not granted (permissions in aiython.toml)`;
  }
  if (isCodeTool(name) && !ctx.readCode) return `tool "${name}" needs the read_code permission, which is not granted (permissions in aiython.toml)`;
  // §5.1's request budget: an AI block gets the code tools when its text speaks of code.
  if (isCodeTool(name) && mode === "syntax" && !speaksOfCode(ctx.request.statement)) {
    return `tool "${name}" is offered to an AI block whose text speaks of code (a file, module, function or dotted name); here use evaluate`;
  }
  return null;
}

export function offeredToolNames(ctx: ToolContext): readonly ToolName[] {
  if (ctx.capabilities !== null) return TOOL_NAMES.filter((name) => unavailableReason(name, ctx) === null);
  // Without capabilities, what unavailableReason decides follows from these alone (a run has a
  // few such lists): each block does not build the reasons of a dozen tools it is not offered.
  const mode = ctx.request.mode;
  const code = Boolean(ctx.readCode) && mode === "syntax" && speaksOfCode(ctx.request.statement);
  const key = `${mode}|${Boolean(ctx.executeCode)}|${Boolean(ctx.readCode)}|${code}|${ctx.mailbox !== null}`;
  let names = sharedNames.get(key);
  if (!names) sharedNames.set(key, (names = Object.freeze(TOOL_NAMES.filter((name) => unavailableReason(name, ctx) === null))));
  return names;
}

/** Offered names by what decides them, for pauses without capabilities (at most 2 × 2 × 2 × 2 × 2 lists). */
const sharedNames = new Map<string, readonly ToolName[]>();

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
  if (has("reference") || has("handle")) properties.id = str("reference: result_id or call id of an earlier evaluate/get_binding in this response; handle: object-N");
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
}

const DESCRIPTIONS: Record<Exclude<ToolName, (typeof CAPABILITY_TOOLS)[number]>, string> = {
  ...MAILBOX_DESCRIPTIONS,
  evaluate: "Evaluate a Python expression in the frame; returns its descriptor.",
  execute: "Execute Python statements in the frame.",
  get_binding: "Descriptor of a local or global name.",
  set_binding: "Bind a name to an existing object (type-checked).",
  inspect: "Bounded structure of an object.",
  get_frame_code: "Source of the paused frame (active) or of the raising one (origin).",
  frames: "Project frames of the stack with their locals.",
  finish: "Terminal: the AI block's outcome.",
  recover: "Terminal: decide the failed statement.",
  ...CODE_TOOL_DESCRIPTIONS,
};

const FRAMES_IN_RECOVERY = "Project frames of the traceback with their locals.";

function parameters(name: ToolName, v: Variant): Schema {
  if (isCapabilityTool(name)) return capabilityToolParameters(name);
  if (isCodeTool(name)) return codeToolParameters(name);
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
      return object({ frame: { type: "string", enum: [...FRAMES] } });
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

const WIDEST: Variant = { outcomeKinds: OUTCOME_KINDS, finishKinds: OUTCOME_KINDS, actions: RECOVER_ACTIONS };

/** How ajv compiles the validation schemas; verbose: errors carry parentSchema, so an unknown argument can be answered with the valid ones. */
export const TOOL_AJV_OPTIONS = { allErrors: true, verbose: true } as const;

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
  };
  const names = offeredToolNames(ctx);
  // Without capabilities or a mailbox the list follows from the names and the variant alone: the
  // same list (fixed, so it is encoded once) serves every pause that gets it.
  if (ctx.capabilities !== null || ctx.mailbox !== null) return toolSpecs(names, variant, recovery, ctx);
  const key = `${recovery}|${names.join(",")}|${variant.outcomeKinds.join(",")}|${variant.finishKinds.join(",")}|${variant.actions.join(",")}`;
  let specs = sharedSpecs.get(key);
  if (!specs) {
    specs = fixedValue(toolSpecs(names, variant, recovery, ctx));
    if (sharedSpecs.size < MAX_SHARED_SPECS) sharedSpecs.set(key, specs);
  }
  return specs;
}

/** Shared tool lists by what decides them; a run has a handful. */
const sharedSpecs = new Map<string, ToolSpec[]>();
const MAX_SHARED_SPECS = 64;

function toolSpecs(names: readonly ToolName[], variant: Variant, recovery: boolean, ctx: ToolContext): ToolSpec[] {
  return names.map((name) => {
    if (isCapabilityTool(name)) {
      const port = ctx.capabilities as CapabilityPort;
      return { type: "function", function: { name, description: capabilityToolDescription(name, port), parameters: capabilityToolParameters(name, port.available()) } };
    }
    const description = name === "frames" && recovery ? FRAMES_IN_RECOVERY : DESCRIPTIONS[name];
    return { type: "function", function: { name, description, parameters: parameters(name, variant) } };
  });
}
