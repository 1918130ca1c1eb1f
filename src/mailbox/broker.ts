// The collaboration mailbox of SPEC §8, held by the host for every process of the run. A group
// is made by `group()`; its holder invites participants by name, each invitation a ticket with
// the participant's own secret; `join(ticket)` gives a member handle (a fresh random id: the
// credential of later calls). Messages are JSON texts kept as sent (1.0 stays a float), queued
// per recipient in order. Bounds (src/defaults.ts): unread messages per recipient and payload
// bytes, each refused with a MailboxError that says what to do; a message id the recipient has
// already had is not delivered twice. Knows nothing of bridges, models or processes: the
// transport is the bridge channel (requests.ts) and the invocation's tools (run/mailbox-wiring.ts).

import { randomBytes, timingSafeEqual } from "node:crypto";
import { MAILBOX_LIMITS } from "../host-tool-defaults.js";

export class MailboxError extends Error {
  override name = "MailboxError";
}

export interface Message {
  id: string;
  from: string;
  /** The payload's JSON text. */
  payload: string;
}

interface Participant {
  name: string;
  secret: string;
  joined: boolean;
  unread: Message[];
  seen: Set<string>;
  waiters: Set<() => void>;
}

interface Group {
  id: string;
  token: string;
  participants: Map<string, Participant>;
}

const TICKET_PREFIX = "aiython-ticket";
const NAME = /^[A-Za-z0-9_.:@-]+$/;

const random = (bytes: number) => randomBytes(bytes).toString("hex");
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class MailboxBroker {
  private readonly groups = new Map<string, Group>();
  private readonly members = new Map<string, { group: Group; participant: Participant }>();

  group(): { group: string; token: string } {
    const group: Group = { id: random(8), token: random(16), participants: new Map() };
    this.groups.set(group.id, group);
    return { group: group.id, token: group.token };
  }

  invite(groupId: string, token: string, name: string): { ticket: string } {
    const group = this.groups.get(groupId);
    if (!group || !same(group.token, token)) throw new MailboxError("this group does not belong to the run; make one with group()");
    if (typeof name !== "string" || !NAME.test(name) || name.length > MAILBOX_LIMITS.maxNameLength) {
      throw new MailboxError(`a participant name is 1-${MAILBOX_LIMITS.maxNameLength} letters, digits or _.:@-, got ${JSON.stringify(name)}`);
    }
    if (group.participants.has(name)) throw new MailboxError(`"${name}" is already invited to this group; invite each participant once`);
    const participant: Participant = { name, secret: random(16), joined: false, unread: [], seen: new Set(), waiters: new Set() };
    group.participants.set(name, participant);
    return { ticket: `${TICKET_PREFIX}:${group.id}:${participant.secret}:${name}` };
  }

  join(ticket: string): { member: string; name: string; peers: string[] } {
    const [prefix, groupId, secret, ...rest] = String(ticket).split(":");
    const name = rest.join(":");
    const participant = prefix === TICKET_PREFIX ? this.groups.get(groupId)?.participants.get(name) : undefined;
    if (!participant || !same(participant.secret, secret ?? "")) {
      throw new MailboxError("not a ticket of this run; use the string team.invite(name) returned");
    }
    participant.joined = true;
    const member = random(16);
    this.members.set(member, { group: this.groups.get(groupId)!, participant });
    return { member, name, peers: this.peersOf(this.groups.get(groupId)!, participant) };
  }

  /** Sends `payload` (a JSON text) from `member` to the participant named `to`; returns the id. */
  send(member: string, to: string, payload: string, id?: string): { id: string; duplicate: boolean } {
    const { group, participant } = this.memberOf(member);
    const recipient = group.participants.get(to);
    if (!recipient) throw new MailboxError(`no participant "${to}" in this group; peers: ${this.peersOf(group, participant).join(", ") || "none"}`);
    const bytes = Buffer.byteLength(payload, "utf8");
    if (bytes > MAILBOX_LIMITS.maxPayloadBytes) {
      throw new MailboxError(`a payload of ${bytes} bytes is over the ${MAILBOX_LIMITS.maxPayloadBytes}-byte limit; send less, or the name of a file`);
    }
    const messageId = id ?? random(8);
    const key = `${participant.name}\u0000${messageId}`;
    if (recipient.seen.has(key)) return { id: messageId, duplicate: true };
    if (recipient.unread.length >= MAILBOX_LIMITS.maxUnread) {
      throw new MailboxError(`"${to}" has ${recipient.unread.length} unread messages, the limit; it must read before more can be sent`);
    }
    remember(recipient.seen, key);
    recipient.unread.push({ id: messageId, from: participant.name, payload });
    for (const wake of recipient.waiters) wake();
    return { id: messageId, duplicate: false };
  }

  /** Takes up to `limit` unread messages, oldest first. */
  read(member: string, limit: number = MAILBOX_LIMITS.maxUnread): { messages: Message[]; remaining: number } {
    const { participant } = this.memberOf(member);
    const messages = participant.unread.splice(0, Math.max(1, limit));
    return { messages, remaining: participant.unread.length };
  }

  pending(member: string): number {
    return this.memberOf(member).participant.unread.length;
  }

  peers(member: string): { me: string; peers: { name: string; joined: boolean }[] } {
    const { group, participant } = this.memberOf(member);
    const peers = [...group.participants.values()].filter((p) => p !== participant).map((p) => ({ name: p.name, joined: p.joined }));
    return { me: participant.name, peers };
  }

  /** Resolves with the unread count once there is one, or after `timeoutMs` (null: no limit), or at close. */
  wait(member: string, timeoutMs: number | null): Promise<number> {
    const { participant } = this.memberOf(member);
    if (participant.unread.length > 0 || timeoutMs === 0) return Promise.resolve(participant.unread.length);
    return new Promise((resolve) => {
      const wake = () => {
        participant.waiters.delete(wake);
        if (timer) clearTimeout(timer);
        resolve(participant.unread.length);
      };
      const timer = timeoutMs === null ? null : setTimeout(wake, timeoutMs);
      timer?.unref();
      participant.waiters.add(wake);
    });
  }

  /** The run is over: every wait returns. */
  close(): void {
    for (const group of this.groups.values()) for (const p of group.participants.values()) for (const wake of [...p.waiters]) wake();
  }

  private memberOf(member: string): { group: Group; participant: Participant } {
    const found = this.members.get(member);
    if (!found) throw new MailboxError("not a member of a group of this run; join(ticket) first");
    return found;
  }

  private peersOf(group: Group, participant: Participant): string[] {
    return [...group.participants.keys()].filter((name) => name !== participant.name);
  }
}

function remember(seen: Set<string>, key: string): void {
  seen.add(key);
  if (seen.size > MAILBOX_LIMITS.rememberedIds) seen.delete(seen.values().next().value as string);
}
