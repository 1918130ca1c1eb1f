// The host's writing side of the control channel (channel.ts): each message's JSON text as frames.
// A message of up to one piece is one frame, written at once. A larger one is written a piece at a
// time, each piece encoded only when the socket has drained the one before, so the host holds the
// text once and one piece of its bytes, not a second copy of the whole; messages and the
// end-of-stream sent meanwhile wait behind it, in order. A message may hold one long string that is
// escaped piece by piece as it goes (`Part.escape`: a model's answer in `raw_arguments`), so its
// JSON text is never made whole. Pieces are cut between characters (never inside a surrogate
// pair), so each is whole UTF-8 and the receiver joins their bytes.

import type { Duplex } from "node:stream";

/** Characters of one piece: escaped at most 6 bytes each, so a piece stays under 24 MiB. */
export const PIECE_CHARS = 4 * 1024 * 1024;
const MORE = 0x80000000;

/** A stretch of a message's JSON text, or (`escape`) a string written into it as a JSON string's inside. */
export interface Part {
  text: string;
  escape: boolean;
}

/** A message being written in pieces (the part and the characters of it written), or the end-of-stream. */
type Pending = { parts: Part[]; index: number; at: number } | "end";

export class OutgoingPieces {
  private readonly pending: Pending[] = [];

  constructor(
    private readonly socket: Duplex,
    private readonly gone: () => boolean,
  ) {}

  /** A message's JSON text, whole or in parts. */
  send(message: string | Part[]): void {
    if (this.pending.length === 0 && typeof message === "string" && message.length <= PIECE_CHARS) {
      this.socket.write(frameOf(message, false));
      return;
    }
    this.pending.push({ parts: typeof message === "string" ? [{ text: message, escape: false }] : message, index: 0, at: 0 });
    if (this.pending.length === 1) this.pump();
  }

  end(): void {
    if (this.pending.length === 0) {
      this.socket.end(Buffer.alloc(4));
      return;
    }
    this.pending.push("end");
  }

  /** Writes pieces while the socket takes them; goes on at its next drain. */
  private pump = (): void => {
    while (this.pending.length > 0) {
      if (this.gone()) {
        this.pending.length = 0;
        return;
      }
      const next = this.pending[0];
      if (next === "end") {
        this.pending.shift();
        this.socket.end(Buffer.alloc(4));
        continue;
      }
      const piece = nextPiece(next);
      const more = next.index < next.parts.length;
      const written = this.socket.write(frameOf(piece, more));
      if (!more) this.pending.shift();
      if (!written) {
        this.socket.once("drain", this.pump);
        return;
      }
    }
  };
}

/** The next piece's text, moving the message on past it. */
function nextPiece(message: { parts: Part[]; index: number; at: number }): string {
  const part = message.parts[message.index];
  let stop = Math.min(part.text.length, message.at + PIECE_CHARS);
  const code = part.text.charCodeAt(stop - 1);
  if (stop < part.text.length && code >= 0xd800 && code <= 0xdbff) stop -= 1; // keep the pair together
  const slice = part.text.slice(message.at, stop);
  message.at = stop;
  if (stop >= part.text.length) {
    message.index += 1;
    message.at = 0;
  }
  return part.escape ? JSON.stringify(slice).slice(1, -1) : slice;
}

/** One frame: the header (the length, with the top bit for a piece that more follow) and the text's UTF-8. */
function frameOf(text: string, more: boolean): Buffer {
  const length = Buffer.byteLength(text, "utf8");
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32BE(more ? length + MORE : length, 0);
  frame.write(text, 4, "utf8");
  return frame;
}
