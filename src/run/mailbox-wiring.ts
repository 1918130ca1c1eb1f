// The run's mailbox (SPEC §8): one broker for every process of the run, made at the first
// `mail` request (a run that never imports `aiython`'s mailbox never loads it). It answers the
// bridges' requests (src/mailbox/requests.ts) and gives an invocation whose thread or task has
// joined a group the MailboxPort its tools run against.

import type { MailboxBroker } from "../mailbox/broker.js";
import type { MailRequest } from "../bridge/protocol.js";
import type { MailboxPort } from "../invocation/ports.js";

type Answer = { ok: true; value: unknown } | { ok: false; error: { type: string; message: string } };

export class RunMailbox {
  private broker: MailboxBroker | null = null;
  private loading: Promise<typeof import("../mailbox/requests.js")> | null = null;

  async answer(message: MailRequest): Promise<Answer> {
    this.loading ??= import("../mailbox/requests.js");
    const { answerMail, MailboxBroker } = await this.loading;
    this.broker ??= new MailboxBroker();
    return answerMail(this.broker, message.op, message.args ?? {});
  }

  /** The port of a joined member, or undefined when the member is not one of this run's. */
  portFor(member: string): MailboxPort | undefined {
    const broker = this.broker;
    if (!broker) return undefined;
    try {
      broker.pending(member);
    } catch {
      return undefined;
    }
    return {
      status: () => {
        const { me, peers } = broker.peers(member);
        return { me, peers: peers.map((peer) => peer.name), unread: broker.pending(member) };
      },
      peers: () => broker.peers(member),
      send: (to, payload, id) => broker.send(member, to, payload, id),
      read: (limit) => broker.read(member, limit),
    };
  }

  close(): void {
    this.broker?.close();
  }
}
