// One child process of the run (SPEC §8) as the host sees it: its own framed channel over a
// connection to the run folder's socket (run-folder.ts). The first frame must be a `hello` with
// the run's secret; anything else, or a wrong secret, closes the connection before a single
// message is handled. After that the link is what BridgeProcess is for the first interpreter,
// without a process handle: send, compile requests, and the messages that are not answers.
// `ended` resolves when the child's side closes (its end of stream, its exit, or being killed).

import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import { Channel } from "./channel.js";
import { PROTOCOL_VERSION, type BridgeMessage, type ChildHello, type CompileRequest, type HelloMessage, type HostMessage, type RequestValues } from "./protocol.js";
import type { RequestResult } from "./bridge-process.js";

export interface ChildLinkEvents {
  /** A child whose hello proved it belongs to the run. */
  accepted(link: ChildLink): void;
}

export class ChildLink {
  pid = 0;
  child: ChildHello | null = null;
  /** Where messages that are not answers go; set by whoever accepted the link. */
  onMessage: (message: BridgeMessage) => void = () => undefined;
  readonly ended: Promise<void>;
  private readonly channel: Channel;
  private readonly pending = new Map<string, (result: RequestResult<unknown>) => void>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly secret: string,
    private readonly events: ChildLinkEvents,
  ) {
    this.channel = new Channel(socket, {
      message: (message) => this.receive(message),
      violation: () => socket.destroy(),
    });
    this.ended = new Promise((resolve) =>
      socket.once("close", () => {
        this.closed = true;
        for (const waiter of this.pending.values()) waiter({ ok: false, error: { type: "bridge_exited", message: "the child process ended" } });
        this.pending.clear();
        resolve();
      }),
    );
  }

  get open(): boolean {
    return !this.closed;
  }

  owns(socket: Socket): boolean {
    return socket === this.socket;
  }

  send(message: HostMessage): void {
    if (!this.closed) this.channel.send(message);
  }

  request(message: Omit<CompileRequest, "id">): Promise<RequestResult<RequestValues["compile"]>> {
    const id = `h${++this.nextId}`;
    return new Promise((resolve) => {
      if (this.closed) return resolve({ ok: false, error: { type: "bridge_exited", message: "the child process ended" } });
      this.pending.set(id, resolve as (result: RequestResult<unknown>) => void);
      this.send({ ...message, id });
    });
  }

  /** The run is over: our end of stream; the child goes on without the host, as python3's would. */
  end(): void {
    if (this.closed) return;
    this.channel.end();
    this.socket.destroySoon();
    this.socket.unref(); // a child that lives on must not keep the host alive
  }

  private receive(message: BridgeMessage): void {
    if (this.child === null) return this.greeted(message);
    if (message.type === "result" && message.pause === undefined) {
      const waiter = this.pending.get(message.id);
      if (waiter) {
        this.pending.delete(message.id);
        return waiter(message.ok ? { ok: true, value: message.value } : { ok: false, error: message.error });
      }
    }
    if (message.type === "hello" || message.type === "exit") return;
    this.onMessage(message);
  }

  private greeted(message: BridgeMessage): void {
    if (message.type !== "hello" || message.protocol !== PROTOCOL_VERSION || !this.proves(message)) {
      this.socket.destroy();
      return;
    }
    this.pid = message.pid;
    this.child = message.child as ChildHello;
    this.events.accepted(this);
  }

  private proves(hello: HelloMessage): boolean {
    const given = Buffer.from(String(hello.child?.secret ?? ""), "utf8");
    const expected = Buffer.from(this.secret, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
