// The bridge's `mail` requests (docs/protocol.md, "The mailbox") served by the run's broker: one
// op per call of the Python API (`aiython.group`, `join`, and a member's methods). Arguments are
// checked here, because they come from a program; a mistake answers a MailboxError naming it.

import { MailboxBroker, MailboxError } from "./broker.js";

export { MailboxBroker };

export type MailAnswer = { ok: true; value: unknown } | { ok: false; error: { type: string; message: string } };

export const MAIL_OPS = ["group", "invite", "join", "send", "read", "pending", "peers", "wait"] as const;

function text(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== "string") throw new MailboxError(`${key} must be a string`);
  return value;
}

function optionalNumber(args: Record<string, unknown>, key: string): number | null {
  const value = args[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new MailboxError(`${key} must be a number of seconds ≥ 0 or None`);
  return value;
}

export async function answerMail(broker: MailboxBroker, op: string, args: Record<string, unknown>): Promise<MailAnswer> {
  try {
    return { ok: true, value: await perform(broker, op, args) };
  } catch (error) {
    if (error instanceof MailboxError) return { ok: false, error: { type: "MailboxError", message: error.message } };
    throw error;
  }
}

async function perform(broker: MailboxBroker, op: string, args: Record<string, unknown>): Promise<unknown> {
  switch (op) {
    case "group":
      return broker.group();
    case "invite":
      return broker.invite(text(args, "group"), text(args, "token"), text(args, "name"));
    case "join":
      return broker.join(text(args, "ticket"));
    case "send": {
      const id = args.message_id === undefined || args.message_id === null ? undefined : text(args, "message_id");
      return broker.send(text(args, "member"), text(args, "to"), text(args, "payload"), id);
    }
    case "read": {
      const limit = optionalNumber(args, "limit");
      return broker.read(text(args, "member"), limit === null ? undefined : Math.floor(limit));
    }
    case "pending":
      return broker.pending(text(args, "member"));
    case "peers":
      return broker.peers(text(args, "member"));
    case "wait": {
      const seconds = optionalNumber(args, "timeout");
      return broker.wait(text(args, "member"), seconds === null ? null : Math.round(seconds * 1000));
    }
    default:
      throw new MailboxError(`no mailbox operation ${JSON.stringify(op)}; valid: ${MAIL_OPS.join(", ")}`);
  }
}
