// What the model reads (SPEC §5.1): the fixed system prompt, the stable and live JSON user
// messages, the reminder after an empty response, and the JSON bodies of tool messages. All JSON
// here is canonical (sorted keys at every level, compact, no NaN/Infinity) so identical inputs give
// identical bytes: the stable prefix of two invocations of one block matches, which keeps provider
// prompt caches and journal request hashes (§11) warm.

import { canonicalJson } from "../../canonical-json.js";
import type { ChatMessage } from "../../model-port.js";
import type { PauseRequest } from "../bridge/protocol.js";
import { EXECUTE_CODE_PERMISSION } from "../../defaults.js";

export const SYSTEM_PROMPT = [
  "You are the runtime of aiython. A Python program is paused at a line CPython cannot parse (mode syntax: an AI block) or at a statement that raised (mode recovery). Act on the live frame only through tools.",
  'syntax: end with finish. A block that needs a value (requires_result or a target) gets it as the outcome; a statement block makes its effects (execute, set_binding) and ends with {"kind":"none"}.',
  "recovery: end with recover: complete (an outcome binds the target, if any), retry after repairing state (reruns only that statement), or reraise with an explanation.",
  'Calls of one response run in order; the terminal call ends the invocation and must be last. Values of small related objects are included, so a simple block should finish in ONE response, e.g. finish {"kind":"literal","value":...}. Literal strings are never evaluated. For existing objects prefer {"kind":"reference","id":<result_id of an evaluate/get_binding earlier in the same response>} or {"kind":"handle","id":"object-N"}. The value must match output_type (output_schema); a violation comes back as a tool error to fix. If the block cannot be done: {"kind":"error","reason":...}.',
  'Tool results: {"status":"ok","result":...}, {"status":"error","message":...} or {"status":"skipped"} (did not run).',
].join("\n");

export { canonicalJson } from "../../canonical-json.js";

/** The part of a pause that is the same every time this block is reached (§5.1). */
export function stableMessage(request: PauseRequest, permissions: ReadonlySet<string>): string {
  return canonicalJson({
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
  });
}

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
    { role: "system", content: SYSTEM_PROMPT },
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
export type ToolResult =
  | { status: "ok"; result: unknown }
  | { status: "error"; error?: string; message: string }
  | { status: "skipped"; message: string };

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
