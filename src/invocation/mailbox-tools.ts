// The mailbox tools of SPEC §8 — `list_peers`, `send_message`, `read_messages` — offered to an
// invocation whose thread or task has joined a mailbox group: their schemas and how a validated
// call runs against the MailboxPort. A refused send (the recipient's queue is full, a payload
// too large, no such peer) is a tool error whose message says what to do.

import { MAILBOX_LIMITS } from "../host-tool-defaults.js";
import { canonicalJson } from "../canonical-json.js";
import type { FrameOpResult, MailboxPort } from "./ports.js";

export const MAILBOX_TOOLS = ["list_peers", "send_message", "read_messages"] as const;
export type MailboxTool = (typeof MAILBOX_TOOLS)[number];

export function isMailboxTool(name: string): name is MailboxTool {
  return (MAILBOX_TOOLS as readonly string[]).includes(name);
}

export function mailboxToolUnavailable(name: MailboxTool, port: MailboxPort | null): string | null {
  return port === null ? `tool "${name}" is for a thread or task that joined a mailbox group (aiython.join); this one has not` : null;
}

export const MAILBOX_DESCRIPTIONS: Record<MailboxTool, string> = {
  list_peers: "The other participants of your mailbox group.",
  send_message: "Send a JSON value to a peer by name.",
  read_messages: "Take your unread messages, oldest first.",
};

export function mailboxToolParameters(name: MailboxTool): Record<string, unknown> {
  const object = (properties: Record<string, unknown>, required: string[] = []) => ({
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  });
  switch (name) {
    case "list_peers":
      return object({});
    case "send_message":
      return object({ to: { type: "string" }, payload: { description: "any JSON value" }, id: { type: "string", description: "a repeated id is delivered once" } }, [
        "to",
        "payload",
      ]);
    case "read_messages":
      return object({ limit: { type: "integer", minimum: 1, maximum: MAILBOX_LIMITS.maxUnread } });
  }
}

export function runMailboxTool(name: MailboxTool, args: Record<string, unknown>, port: MailboxPort): FrameOpResult {
  try {
    switch (name) {
      case "list_peers":
        return { ok: true, value: port.peers() };
      case "send_message":
        return { ok: true, value: port.send(String(args.to), canonicalJson(args.payload ?? null), args.id as string | undefined) };
      case "read_messages": {
        const { messages, remaining } = port.read(args.limit as number | undefined);
        return { ok: true, value: { messages: messages.map((m) => ({ id: m.id, from: m.from, payload: JSON.parse(m.payload) as unknown })), remaining } };
      }
    }
  } catch (error) {
    return { ok: false, error: { type: (error as Error).name || "MailboxError", message: (error as Error).message } };
  }
}
