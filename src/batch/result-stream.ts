// Output and error files read line by line (SPEC §14): a completed batch's files may hold 50,000
// lines and 200 MB, so they are never held whole. The bytes are split at "\n" as they come — a
// line may end in one chunk and begin in another, the last line may lack its "\n", a "\r" before
// the "\n" is left to JSON (whitespace) — and each line is handed to readLine (batch-lines.ts) at
// once. What is held is the line being read, never the file.

import fs from "node:fs";
import { readLine, type LineResult } from "./batch-lines.js";

const NEWLINE = 0x0a;
const BOM = "\uFEFF";
/** Bytes read from a results file at a time. */
const READ_BYTES = 1 << 20;

/** Splits bytes into lines (without their "\n"), holding at most one unfinished line between chunks. */
export class LineSplitter {
  private held: Buffer[] = [];
  private first = true;

  /** The lines this chunk finishes. */
  push(chunk: Uint8Array): string[] {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lines: string[] = [];
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const tail = bytes.subarray(start, end);
      lines.push(this.decode(this.held.length === 0 ? tail : Buffer.concat([...this.held, tail])));
      this.held = [];
      start = end + 1;
    }
    // A copy: a subarray would keep the whole chunk alive while the line goes on.
    if (start < bytes.length) this.held.push(Buffer.from(bytes.subarray(start)));
    return lines;
  }

  /** The last line, when the input did not end with "\n". */
  end(): string | null {
    if (this.held.length === 0) return null;
    const line = this.decode(Buffer.concat(this.held));
    this.held = [];
    return line;
  }

  /** A line's text; a byte-order mark opening the input is dropped, as a text decoder does. */
  private decode(bytes: Buffer): string {
    const text = bytes.toString("utf8");
    if (!this.first) return text;
    this.first = false;
    return text.startsWith(BOM) ? text.slice(1) : text;
  }
}

/** The answers of an output or error file streamed in chunks, added to `into` line by line (readResults' rules). */
export async function readResultStream(chunks: AsyncIterable<Uint8Array>, into: Map<string, LineResult> = new Map()): Promise<Map<string, LineResult>> {
  const splitter = new LineSplitter();
  for await (const chunk of chunks) for (const line of splitter.push(chunk)) readLine(line, into);
  const last = splitter.end();
  if (last !== null) readLine(last, into);
  return into;
}

/** The answers of a results file on disk, read a megabyte at a time. Throws when it cannot be opened. */
export function readResultFile(file: string, into: Map<string, LineResult> = new Map()): Map<string, LineResult> {
  const fd = fs.openSync(file, "r");
  try {
    const splitter = new LineSplitter();
    const buffer = Buffer.alloc(READ_BYTES);
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) {
      for (const line of splitter.push(buffer.subarray(0, read))) readLine(line, into);
    }
    const last = splitter.end();
    if (last !== null) readLine(last, into);
    return into;
  } finally {
    fs.closeSync(fd);
  }
}
