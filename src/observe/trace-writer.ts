// `--trace FILE` (SPEC §11): one JSON line per event — model request, model response, tool call,
// tool result, outcome — as the orchestrator emits them, each with its invocation id and
// timestamp (`at`, ms since epoch). Written synchronously so a line is on disk before the next
// event and nothing is lost when the run ends abruptly. The file is created owner-only (it holds
// program data) and every line passes through the redactor (§9).

import fs from "node:fs";
import type { Redactor } from "./redact.js";
import type { InvocationEvent } from "../invocation-record.js";

export interface TraceWriter {
  write(event: InvocationEvent): void;
  close(): void;
}

export class TraceFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TraceFileError";
  }
}

export function openTraceWriter(file: string, opts: { redact: Redactor; warn: (message: string) => void }): TraceWriter {
  let fd: number | null;
  try {
    fd = fs.openSync(file, "w", 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const reasons: Record<string, string> = { ENOENT: "its folder does not exist", EACCES: "permission denied", EISDIR: "it is a folder", EROFS: "read-only file system" };
    throw new TraceFileError(`--trace: cannot write ${file}: ${reasons[code] ?? (error as Error).message}; give a writable file path`);
  }
  return {
    write(event) {
      if (fd === null) return;
      try {
        fs.writeSync(fd, `${opts.redact(JSON.stringify(event))}\n`);
      } catch (error) {
        opts.warn(`--trace: writing ${file} failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the rest of this run is not traced`);
        fs.closeSync(fd);
        fd = null;
      }
    },
    close() {
      if (fd === null) return;
      fs.closeSync(fd);
      fd = null;
    },
  };
}
