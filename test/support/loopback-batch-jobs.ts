// The batches of the loopback Batch API (loopback-batch.ts): an uploaded JSONL file becomes a
// batch that moves validating → in_progress → completed one status per `pollsPerStatus` polls (or
// stays in progress while the server holds), and at its end writes an output file (one line per
// answered request, OpenAI's batch output format) and an error file (failed lines, or every line
// of an expired batch). A line's answer is the chat responder's, as the live loopback gives it.

import { completionBody, errorBody, type RecordedRequest, type Responder } from "./loopback-replies.js";

export interface BatchLine {
  custom_id: string;
  method: string;
  url: string;
  body: any;
}

export interface BatchRules {
  responder: Responder;
  /** GET polls spent in validating, and again in in_progress (default 1). */
  pollsPerStatus: number;
  /** A line answered with an HTTP error in the error file (`n`: 0-based over every line this server answered). */
  failLine?: (line: BatchLine, n: number) => boolean;
  /** A line written to the output file as text that is not JSON. */
  malformedLine?: (line: BatchLine, n: number) => boolean;
  /** Batches (1-based, in creation order) that expire: every line goes to the error file as batch_expired. */
  expireBatch?: (batch: number) => boolean;
}

export interface BatchRecord {
  id: string;
  number: number;
  input_file_id: string;
  lines: BatchLine[];
  status: "validating" | "in_progress" | "completed" | "expired" | "failed";
  polls: number;
  output_file_id: string | null;
  error_file_id: string | null;
  counts: { total: number; completed: number; failed: number };
  errors: string[];
  metadata: Record<string, string> | null;
}

/** The lines of an uploaded file, or why it is not a batch input. */
export function parseInput(text: string): BatchLine[] | string {
  const lines: BatchLine[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of text.split("\n").entries()) {
    if (raw.trim() === "") continue;
    let line: BatchLine;
    try {
      line = JSON.parse(raw);
    } catch {
      return `line ${i + 1} is not JSON`;
    }
    if (typeof line.custom_id !== "string" || line.method !== "POST" || line.url !== "/v1/chat/completions" || typeof line.body !== "object") {
      return `line ${i + 1} lacks custom_id, method POST, url /v1/chat/completions or body`;
    }
    if (seen.has(line.custom_id)) return `line ${i + 1} repeats custom_id ${line.custom_id}`;
    seen.add(line.custom_id);
    lines.push(line);
  }
  return lines.length > 0 ? lines : "the file holds no request";
}

export class BatchJobs {
  readonly batches: BatchRecord[] = [];
  /** Lines answered so far, over every batch. */
  private answered = 0;
  holding = false;

  constructor(
    private readonly rules: BatchRules,
    private readonly store: (content: string) => string,
  ) {}

  create(inputFileId: string, lines: BatchLine[] | string, metadata: Record<string, string> | null = null): BatchRecord {
    const number = this.batches.length + 1;
    const errors = typeof lines === "string" ? [lines] : [];
    const items = typeof lines === "string" ? [] : lines;
    const batch: BatchRecord = {
      id: `batch_loop_${number}`,
      number,
      input_file_id: inputFileId,
      lines: items,
      status: "validating",
      polls: 0,
      output_file_id: null,
      error_file_id: null,
      counts: { total: items.length, completed: 0, failed: 0 },
      errors,
      metadata,
    };
    this.batches.push(batch);
    return batch;
  }

  /** One GET of the batch: moves it on, finishing it when its time has come. */
  async poll(batch: BatchRecord): Promise<void> {
    batch.polls += 1;
    const steps = this.rules.pollsPerStatus;
    if (batch.status === "validating" && batch.polls >= steps) batch.status = batch.errors.length > 0 ? "failed" : "in_progress";
    else if (batch.status === "in_progress" && batch.polls >= 2 * steps && !this.holding) await this.finish(batch);
  }

  private async finish(batch: BatchRecord): Promise<void> {
    const output: string[] = [];
    const errors: string[] = [];
    if (this.rules.expireBatch?.(batch.number)) {
      for (const line of batch.lines)
        errors.push(errorLine(line, null, { code: "batch_expired", message: "This request could not be executed before the completion window expired." }));
      batch.status = "expired";
    } else {
      for (const line of batch.lines) {
        const n = this.answered++;
        if (this.rules.failLine?.(line, n)) errors.push(errorLine(line, { status_code: 500, request_id: `req_${n}`, body: JSON.parse(errorBody(500)) }, null));
        else if (this.rules.malformedLine?.(line, n)) output.push(`{"custom_id": ${JSON.stringify(line.custom_id)}, "response": {not json`);
        else output.push(await this.answer(line, n));
      }
      batch.status = "completed";
    }
    batch.counts = { total: batch.lines.length, completed: batch.lines.length - errors.length, failed: errors.length };
    batch.output_file_id = output.length > 0 ? this.store(`${output.join("\n")}\n`) : null;
    batch.error_file_id = errors.length > 0 ? this.store(`${errors.join("\n")}\n`) : null;
  }

  private async answer(line: BatchLine, n: number): Promise<string> {
    const request: RecordedRequest = { method: "POST", body: line.body, rawBody: JSON.stringify(line.body), headers: {}, path: line.url, receivedAt: Date.now(), connection: 0 };
    const reply = await this.rules.responder(request, n);
    const status = reply.status ?? 200;
    const body = reply.rawBody !== undefined ? JSON.parse(reply.rawBody) : status === 200 ? completionBody(request, reply, n + 1) : JSON.parse(errorBody(status));
    return JSON.stringify({ id: `batch_req_${n}`, custom_id: line.custom_id, response: { status_code: status, request_id: `req_${n}`, body }, error: null });
  }
}

function errorLine(line: BatchLine, response: object | null, error: object | null): string {
  return JSON.stringify({ id: `batch_req_err_${line.custom_id}`, custom_id: line.custom_id, response, error });
}

/** The batch object as GET /batches/{id} returns it. */
export function batchObject(batch: BatchRecord): object {
  return {
    id: batch.id,
    object: "batch",
    endpoint: "/v1/chat/completions",
    errors: batch.errors.length > 0 ? { object: "list", data: batch.errors.map((message) => ({ code: "invalid_input", message })) } : null,
    input_file_id: batch.input_file_id,
    completion_window: "24h",
    status: batch.status,
    output_file_id: batch.output_file_id,
    error_file_id: batch.error_file_id,
    created_at: 0,
    request_counts: batch.counts,
    metadata: batch.metadata,
  };
}
