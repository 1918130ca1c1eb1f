// The host's end of the control channel: length-prefixed JSON frames (docs/protocol.md) over the
// socket Node made for the child's fd 3. Decoding is incremental; a zero-length frame is the
// peer's end-of-stream; oversize or malformed frames are protocol violations.
//
// A message larger than one piece goes as several frames, each but the last marked "more" in its
// header's top bit, written one piece at a time as the socket drains (outgoing-pieces.ts): a model's
// answer of tens of megabytes is held once: an op's `raw_arguments` longer than a piece (the model's
// own text of a terminal call) is escaped into the frames piece by piece, never as a whole JSON text.

import type { Duplex } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { ProtocolError } from "../errors.js";
import { OutgoingPieces, PIECE_CHARS, type Part } from "./outgoing-pieces.js";
import { type BridgeMessage, type HostMessage, isBridgeMessage, MAX_FRAME, MAX_MESSAGE } from "./protocol.js";

export interface ChannelEvents {
  message(message: BridgeMessage): void;
  violation(error: ProtocolError): void;
}

/** The header's top bit: the frame is a piece of a message the next frame goes on with. */
const MORE = 0x80000000;

export class Channel {
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  /** Bytes the next frame needs before it can be read (its header, then its header and body). */
  private needed = 4;
  /**
   * The pieces of a message whose last frame has not arrived, decoded as they come (a character
   * may straddle two pieces: the decoder keeps its first bytes), so that a large message is not
   * held as its frames' bytes and their join and its text at once.
   */
  private pieces: string[] = [];
  private readonly decoder = new StringDecoder("utf8");
  private pieceBytes = 0;
  private ended = false;
  private broken = false;
  private readonly outgoing: OutgoingPieces;

  constructor(
    private readonly socket: Duplex,
    private readonly events: ChannelEvents,
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    // EPIPE / ECONNRESET after the child died: the exit status tells the story, not this.
    socket.on("error", () => {
      this.broken = true;
    });
    this.outgoing = new OutgoingPieces(socket, () => this.broken || socket.destroyed);
  }

  send(message: HostMessage): void {
    if (this.broken || this.socket.destroyed) return;
    const long = longRawArguments(message);
    if (long !== null) return this.outgoing.send(withLongString(message, long));
    const text = JSON.stringify(message);
    const length = text.length > MAX_MESSAGE / 3 ? Buffer.byteLength(text, "utf8") : text.length;
    if (length > MAX_MESSAGE) {
      throw new ProtocolError(`outgoing message of ${length} bytes exceeds the ${MAX_MESSAGE}-byte cap`);
    }
    this.outgoing.send(text);
  }

  /** Sends the end-of-stream marker and closes our side (after any message still going out). */
  end(): void {
    if (this.broken || this.socket.destroyed) return;
    this.outgoing.end();
  }

  private receive(chunk: Buffer): void {
    if (this.ended || this.broken) return;
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    // A large frame arrives in many chunks: they are joined once it is whole, not at each chunk.
    if (this.bufferedBytes < this.needed) return;
    let data = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    let offset = 0;
    this.needed = 4;
    while (data.length - offset >= 4) {
      const header = data.readUInt32BE(offset);
      const more = header >= MORE;
      const length = more ? header - MORE : header;
      if (header === 0 && this.pieces.length === 0) {
        this.ended = true;
        this.buffered = [];
        this.bufferedBytes = 0;
        this.end(); // the bridge may be waiting for our close before it exits
        return;
      }
      if (length > MAX_FRAME) {
        return this.fail(`incoming frame of ${length} bytes exceeds the ${MAX_FRAME}-byte cap`);
      }
      if (data.length - offset - 4 < length) {
        this.needed = 4 + length;
        break;
      }
      const body = data.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
      if (more || this.pieces.length > 0) {
        this.pieceBytes += length;
        if (this.pieceBytes > MAX_MESSAGE) return this.fail(`incoming message of ${this.pieceBytes} bytes exceeds the ${MAX_MESSAGE}-byte cap`);
        this.pieces.push(this.decoder.write(body));
        if (more) continue;
        this.pieces.push(this.decoder.end());
      }
      const text = this.pieces.length > 0 ? this.pieces.join("") : body.toString("utf8");
      this.pieces = [];
      this.pieceBytes = 0;
      this.deliver(text);
      if (this.ended || this.broken) return;
    }
    data = offset === 0 ? data : data.subarray(offset);
    this.buffered = data.length ? [data] : [];
    this.bufferedBytes = data.length;
  }

  private deliver(text: string): void {
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
  }

  private fail(message: string): void {
    this.broken = true;
    this.events.violation(new ProtocolError(message));
  }
}

/** An op's `raw_arguments` longer than one piece, or null. */
function longRawArguments(message: HostMessage): string | null {
  if (message.type !== "op") return null;
  const raw = (message.args as { raw_arguments?: unknown }).raw_arguments;
  return typeof raw === "string" && raw.length > PIECE_CHARS ? raw : null;
}

/** The op's JSON text around its `raw_arguments`, and that string, escaped as it is written. */
function withLongString(message: HostMessage, raw: string): Part[] {
  const mark = "\u0000raw_arguments\u0000";
  const args = (message as { args: object }).args;
  const text = JSON.stringify({ ...message, args: { ...args, raw_arguments: mark } });
  const at = text.indexOf(JSON.stringify(mark));
  return [
    { text: text.slice(0, at + 1), escape: false },
    { text: raw, escape: true },
    { text: text.slice(at + JSON.stringify(mark).length - 1), escape: false },
  ];
}
