// The host's end of the control channel: length-prefixed JSON frames (docs/protocol.md) over the
// socket Node made for the child's fd 3. Decoding is incremental; a zero-length frame is the
// peer's end-of-stream; oversize or malformed frames are protocol violations.

import type { Duplex } from "node:stream";
import { ProtocolError } from "../errors.js";
import { type BridgeMessage, type HostMessage, isBridgeMessage, MAX_FRAME } from "./protocol.js";

export interface ChannelEvents {
  message(message: BridgeMessage): void;
  violation(error: ProtocolError): void;
}

export class Channel {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private ended = false;
  private broken = false;

  constructor(
    private readonly socket: Duplex,
    private readonly events: ChannelEvents,
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    // EPIPE / ECONNRESET after the child died: the exit status tells the story, not this.
    socket.on("error", () => {
      this.broken = true;
    });
  }

  send(message: HostMessage): void {
    if (this.broken || this.socket.destroyed) return;
    const text = JSON.stringify(message);
    // One buffer for the length and the text: the frame is encoded once, straight into place.
    const length = Buffer.byteLength(text, "utf8");
    if (length > MAX_FRAME) {
      throw new ProtocolError(`outgoing frame of ${length} bytes exceeds the ${MAX_FRAME}-byte cap`);
    }
    const frame = Buffer.allocUnsafe(4 + length);
    frame.writeUInt32BE(length, 0);
    frame.write(text, 4, "utf8");
    this.socket.write(frame);
  }

  /** Sends the end-of-stream marker and closes our side. */
  end(): void {
    if (this.broken || this.socket.destroyed) return;
    this.socket.end(Buffer.alloc(4));
  }

  private receive(chunk: Buffer): void {
    if (this.ended || this.broken) return;
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    let data = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    let offset = 0;
    while (data.length - offset >= 4) {
      const length = data.readUInt32BE(offset);
      if (length === 0) {
        this.ended = true;
        this.buffered = [];
        this.bufferedBytes = 0;
        this.end(); // the bridge may be waiting for our close before it exits
        return;
      }
      if (length > MAX_FRAME) {
        return this.fail(`incoming frame of ${length} bytes exceeds the ${MAX_FRAME}-byte cap`);
      }
      if (data.length - offset - 4 < length) break;
      const text = data.toString("utf8", offset + 4, offset + 4 + length);
      offset += 4 + length;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return this.fail("a frame from the bridge is not valid JSON");
      }
      if (!isBridgeMessage(parsed)) {
        return this.fail(`unknown message from the bridge: ${text.slice(0, 80)}`);
      }
      this.events.message(parsed);
      if (this.ended || this.broken) return;
    }
    data = offset === 0 ? data : data.subarray(offset);
    this.buffered = data.length ? [data] : [];
    this.bufferedBytes = data.length;
  }

  private fail(message: string): void {
    this.broken = true;
    this.events.violation(new ProtocolError(message));
  }
}
