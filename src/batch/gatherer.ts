// Gathers the requests of one route into batches (SPEC §14). Each request's line is written at
// once to a spool file of the batch it joins, so a waiting request keeps only its custom_id, its
// journal key and its continuation in memory (50,000 waiting requests stay within the host's
// memory budget, SPEC §12 as bench/batch.ts measures it). A batch is handed on when no new request
// has come for `window` milliseconds, or at once when it holds `maxRequests` lines or one more
// line would take it past `maxBytes` (the providers' limits: the rest starts the next batch).
// Requests come from every thread, task and process of the run: they all pause through this host.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LineResult } from "./batch-lines.js";

/** A model request waiting for its batch. */
export interface Pending {
  customId: string;
  key: string;
  occurrence: number;
  settle(result: LineResult): void;
}

/** A batch ready to go: its lines in `file` (one per pending request, in order). */
export interface Spooled {
  file: string;
  pendings: Pending[];
  bytes: number;
}

interface Open extends Spooled {
  fd: number;
}

export class Gatherer {
  private open: Open | null = null;
  private timer: NodeJS.Timeout | null = null;
  private folder: string | null = null;
  private files = 0;

  constructor(
    private readonly windowMs: number,
    private readonly limits: { maxRequests: number; maxBytes: number },
    private readonly handOn: (batch: Spooled) => void,
  ) {}

  add(pending: Pending, line: string): void {
    const text = `${line}\n`;
    const size = Buffer.byteLength(text, "utf8");
    if (this.open && this.open.bytes + size > this.limits.maxBytes) this.flush();
    const batch = (this.open ??= this.spool());
    fs.writeSync(batch.fd, text);
    batch.pendings.push(pending);
    batch.bytes += size;
    if (batch.pendings.length >= this.limits.maxRequests) return this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  /** A request no longer wanted (its block was cancelled) before its batch left: true when it had not (its line goes, unanswered). */
  remove(pending: Pending): boolean {
    const at = this.open?.pendings.indexOf(pending) ?? -1;
    if (at === -1) return false;
    this.open?.pendings.splice(at, 1, { ...pending, settle: () => undefined });
    return true;
  }

  /** Stops the window; a batch not handed on yet is dropped with its file. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.open) {
      fs.closeSync(this.open.fd);
      fs.rmSync(this.open.file, { force: true });
      this.open = null;
    }
    if (this.folder) fs.rmSync(this.folder, { recursive: true, force: true });
  }

  private spool(): Open {
    this.folder ??= fs.mkdtempSync(path.join(os.tmpdir(), "aiython-batch-"));
    const file = path.join(this.folder, `batch-${++this.files}.jsonl`);
    return { file, fd: fs.openSync(file, "wx", 0o600), pendings: [], bytes: 0 };
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.open;
    this.open = null;
    if (!batch) return;
    fs.closeSync(batch.fd);
    this.handOn({ file: batch.file, pendings: batch.pendings, bytes: batch.bytes });
  }
}
