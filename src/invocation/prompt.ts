// What the model reads (SPEC §5.1): the fixed system prompt of the mode, the stable and live JSON
// user messages, the reminder after an empty response, and the JSON bodies of tool messages. All JSON
// here is canonical (sorted keys at every level, compact, no NaN/Infinity) so identical inputs give
// identical bytes: the stable prefix of two invocations of one block matches, which keeps provider
// prompt caches and journal request hashes (§11) warm.

import { canonicalJson } from "../canonical-json.js";
import type { ChatMessage } from "../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { EXECUTE_CODE_PERMISSION } from "../defaults.js";

// The system prompt is fixed per mode and says only what the model cannot read elsewhere: the
// meaning of each outcome kind and tool argument is in the tool schemas (tools.ts), as structure
// rather than as JSON quoted inside prose, and a syntax-mode request carries nothing about
// recovery (nor a recovery request about AI blocks).
const OPENING = "You are the runtime of aiython. A Python program is paused";
const IN_ORDER = "The calls of one response run in order";
const TYPED = "A value must match output_type (output_schema); a mismatch comes back as a tool error to fix.";

export const SYNTAX_SYSTEM_PROMPT = [
  `${OPENING} at an AI block, a line CPython cannot parse: do what it says to the live frame, through tools only.`,
  `${IN_ORDER}; end with finish as the last call. A block that needs a value (requires_result or a target) gets it as the outcome; a statement block makes its effects (execute, set_binding) and finishes with outcome kind none.`,
  `Values of small related objects are included, so a simple block should finish in ONE response. ${TYPED} If the block cannot be done, finish with outcome kind error.`,
].join("\n");

export const RECOVERY_SYSTEM_PROMPT = [
  `${OPENING} at a statement that raised an exception nothing handles: decide it on the live frame, through tools only.`,
  `${IN_ORDER}; end with recover as the last call: complete (an outcome binds the target, if any), retry after repairing state (reruns only that statement), or reraise with an explanation.`,
  TYPED,
].join("\n");

export function systemPrompt(mode: PauseRequest["mode"]): string {
  return mode === "syntax" ? SYNTAX_SYSTEM_PROMPT : RECOVERY_SYSTEM_PROMPT;
}

export { canonicalJson } from "../canonical-json.js";

/** The part of a pause that is the same every time this block is reached (§5.1). */
export function stableMessage(request: PauseRequest, permissions: ReadonlySet<string>): string {
  const stable = {
    mode: request.mode,
    statement: request.statement,
    location: request.location,
    target: request.target,
    output_type: request.output_type,
    output_schema: request.output_schema,
    requires_result: request.requires_result,
    hints: request.hints,
    code_context: request.code_context,
    permissions: { [EXECUTE_CODE_PERMISSION]: permissions.has(EXECUTE_CODE_PERMISSION) },
  };
  // A block reached again sends the same stable part: its canonical text is remembered under the
  // plain JSON.stringify text of the same value (native, several times cheaper than sorting keys
  // in JS), which is equal only for an equal value, as the bridge's JSON holds no NaN or Infinity.
  const plain = JSON.stringify(stable);
  const known = stableTexts.get(request.block_id);
  if (known?.plain === plain) return known.canonical;
  const canonical = canonicalJson(stable);
  if (!known && stableTexts.size >= MAX_STABLE_TEXTS) stableTexts.delete(stableTexts.keys().next().value as string);
  stableTexts.set(request.block_id, { plain, canonical });
  return canonical;
}

/** The last stable part of each block, by block id; the oldest block's goes first beyond the cap. */
const stableTexts = new Map<string, { plain: string; canonical: string }>();
const MAX_STABLE_TEXTS = 256;

/**
 * The part that changes between visits: object values, in recovery the failure (§5.1), and for a
 * joined thread or task its mailbox: who it is, its peers and its unread count (§8).
 */
export function liveMessage(request: PauseRequest, mailbox?: { me: string; peers: string[]; unread: number }): string {
  return canonicalJson({
    related_objects: request.related_objects,
    frame_objects: request.frame_objects,
    recovery: request.recovery,
    mailbox,
  });
}

export function initialMessages(request: PauseRequest, permissions: ReadonlySet<string>, mailbox?: { me: string; peers: string[]; unread: number }): ChatMessage[] {
  return [
    { role: "system", content: systemPrompt(request.mode) },
    { role: "user", content: stableMessage(request, permissions) },
    { role: "user", content: liveMessage(request, mailbox) },
  ];
}

/** Sent once after a response without tool calls (§5.4). */
export function emptyResponseReminder(mode: PauseRequest["mode"]): string {
  const terminal = mode === "syntax" ? "finish" : "recover";
  return `Your response had no tool call. Answer only with tool calls, and end this invocation with ${terminal} as the last call.`;
}

/** The body of a tool message (§5.3). */
export type ToolResult = { status: "ok"; result: unknown } | { status: "error"; error?: string; message: string } | { status: "skipped"; message: string };

/** Compact JSON with `status` first, as §5.3 writes it; the payload inside is canonical. */
export function toolResultContent(result: ToolResult): string {
  const status = `{"status":${JSON.stringify(result.status)}`;
  switch (result.status) {
    case "ok":
      return `${status},"result":${canonicalJson(result.result ?? null)}}`;
    case "error":
      return `${status}${result.error === undefined ? "" : `,"error":${JSON.stringify(result.error)}`},"message":${JSON.stringify(result.message)}}`;
    case "skipped":
      return `${status},"message":${JSON.stringify(result.message)}}`;
  }
}

export const BATCH_REJECTED: ToolResult = { status: "skipped", message: "batch rejected; no tool ran" };
export const EARLIER_CALL_FAILED: ToolResult = { status: "skipped", message: "an earlier call of this response failed; this call did not run" };
