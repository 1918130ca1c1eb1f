// The host's end of the control channel (src/bridge/channel.ts, outgoing-pieces.ts): a message
// larger than a piece goes as several frames (the top bit of each header but the last), each under
// MAX_FRAME, written as the socket drains and in order with what is sent after it; frames in pieces
// from the bridge are joined before they are decoded.

import assert from "node:assert/strict";
import { Duplex } from "node:stream";
import { test } from "node:test";
import { Channel } from "../src/bridge/channel.js";
import { PIECE_CHARS } from "../src/bridge/outgoing-pieces.js";
import { type BridgeMessage, type HostMessage, MAX_FRAME } from "../src/bridge/protocol.js";

const MORE = 0x80000000;

/** A socket that takes one write at a time (each ends a tick later) and keeps what was written. */
class SlowSocket extends Duplex {
  readonly written: Buffer[] = [];
  ended = false;
  constructor() {
    super({ writableHighWaterMark: 1 });
  }
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.written.push(chunk);
    setImmediate(done);
  }
  override _final(done: () => void): void {
    this.ended = true;
    done();
  }
  override _read(): void {}
}

/** The messages in a byte stream of frames, with the headers of each. */
function messagesIn(bytes: Buffer): { text: string; headers: number[] }[] {
  const out: { text: string; headers: number[] }[] = [];
  let pieces: Buffer[] = [];
  let headers: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    const header = bytes.readUInt32BE(at);
    const length = header >= MORE ? header - MORE : header;
    headers.push(header);
    pieces.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
    if (header < MORE) {
      out.push({ text: Buffer.concat(pieces).toString("utf8"), headers });
      pieces = [];
      headers = [];
    }
  }
  return out;
}

const drained = (socket: SlowSocket) => new Promise<void>((resolve) => (socket.ended ? resolve() : socket.once("finish", () => resolve())));

test("an op whose raw_arguments pass a piece goes in pieces, each under the frame cap, the text intact and the next message after it", async () => {
  const socket = new SlowSocket();
  const channel = new Channel(socket, { message() {}, violation: (error) => assert.fail(error.message) });
  // Surrogate pairs, quotes and backslashes across every piece boundary.
  const raw = JSON.stringify({ outcome: { kind: "literal", value: 'é😀"\\'.repeat(Math.ceil((PIECE_CHARS * 2.5) / 5)) } });
  const op = { type: "op", pause: "p1", id: "o1", op: "finish", args: { outcome: { kind: "literal" }, call_id: "c1", raw_arguments: raw } } as HostMessage;
  channel.send(op);
  channel.send({ type: "interrupt", pause: "p1", id: "o2" } as HostMessage);
  channel.end();
  await drained(socket);
  const [big, small, end] = messagesIn(Buffer.concat(socket.written));
  assert.deepEqual(JSON.parse(big.text), op);
  assert.ok(big.headers.length >= 3, `pieces: ${big.headers.length}`);
  assert.ok(big.headers.slice(0, -1).every((h) => h >= MORE) && big.headers.at(-1)! < MORE);
  assert.ok(big.headers.every((h) => (h >= MORE ? h - MORE : h) <= MAX_FRAME));
  assert.deepEqual(JSON.parse(small.text), { type: "interrupt", pause: "p1", id: "o2" });
  assert.equal(end.text, "", "the end-of-stream marker comes last");
  assert.ok(socket.written.length > 3, "written a piece at a time");
});

test("frames in pieces from the bridge, split across reads anywhere, are one message", () => {
  const socket = new SlowSocket();
  const got: BridgeMessage[] = [];
  new Channel(socket, { message: (m) => got.push(m), violation: (error) => assert.fail(error.message) });
  const message = { type: "exit", status: 0, interrupted: false, note: "é😀".repeat(1000) };
  const data = Buffer.from(JSON.stringify(message));
  const cuts = [0, 5, 1001, data.length];
  const frames = cuts.slice(1).map((stop, i) => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(stop - cuts[i] + (stop < data.length ? MORE : 0));
    return Buffer.concat([header, data.subarray(cuts[i], stop)]);
  });
  const stream = Buffer.concat(frames);
  for (let at = 0; at < stream.length; at += 7) socket.emit("data", stream.subarray(at, at + 7));
  assert.deepEqual(got, [message]);
});
