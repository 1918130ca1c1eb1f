// The host's own stdin, stdout and stderr while a program runs. They are the program's file
// descriptions too (the interpreter inherits fds 0–2), and Node turns a pipe it opens as a
// stdio stream into non-blocking mode, which the child would then see: a print loop into a slow
// reader loses output, `sys.stdin.read()` fails. Anything may touch `process.stdout` (an ES
// module import of "node:process" alone reads all three getters), so before the program starts
// the three are replaced by streams that never open a handle on the descriptors: writes go
// straight to the fd with fs.writeSync (retried while the fd is busy, dropped once the reader
// has gone), and stdin reads as empty (the host never reads the program's input).

import fs from "node:fs";
import { Readable, Writable } from "node:stream";
import tty from "node:tty";

let installed = false;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** From now on, nothing the host does can change the mode of fds 0–2. Idempotent. */
export function protectHostStdio(): void {
  if (installed) return;
  installed = true;
  define("stdin", () => new InertInput(0));
  define("stdout", () => new FdWriter(1));
  define("stderr", () => new FdWriter(2));
}

function define(name: "stdin" | "stdout" | "stderr", make: () => unknown): void {
  let stream: unknown;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: true,
    get: () => (stream ??= make()),
  });
}

class FdWriter extends Writable {
  readonly isTTY: boolean;

  constructor(readonly fd: number) {
    super();
    this.isTTY = tty.isatty(fd);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    try {
      writeAll(this.fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") return done(error as Error);
    }
    done();
  }
}

class InertInput extends Readable {
  readonly isTTY: boolean;

  constructor(readonly fd: number) {
    super();
    this.isTTY = tty.isatty(fd);
  }

  override _read(): void {
    this.push(null);
  }
}

/** Writes all of `data`, waiting a millisecond whenever the fd is non-blocking and full. */
function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += fs.writeSync(fd, data, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
