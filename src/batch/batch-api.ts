// The OpenAI Batch API on a route's api_base (SPEC §14): upload the requests as a JSONL file
// (`POST /files`, purpose=batch), create the batch (`POST /batches`, completion_window 24h), read
// its status (`GET /batches/{id}`), find one by its metadata (`GET /batches`, paged) and stream
// its output and error files (`GET /files/{id}/content`, batch-http.ts).
// OpenAI, Azure OpenAI, Together and LiteLLM's proxy speak it. A server that answers 404 to
// /files or /batches has no Batch API: one BatchUnsupportedError names the fixes. Messages never
// hold the key, the Authorization header or the provider's error body (SPEC §9).

import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { decoded, exchange, HTTP_TIMEOUT_MS, streamed } from "./batch-http.js";
import { CHAT_ENDPOINT } from "./batch-lines.js";

/** Where a route's batches go. */
export interface BatchRoute {
  id: string;
  model: string;
  apiBase: string;
  /** Never printed. */
  apiKey: string | null;
  apiKeyEnv: string | null;
}

export interface BatchState {
  status: string;
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number } | null;
}

/** Statuses after which a batch changes no more. */
export const FINAL_STATUSES = new Set(["completed", "failed", "expired", "cancelled"]);

/** The server has no Batch API. */
export class BatchUnsupportedError extends Error {}

/** A request of the Batch API failed; `status` is its HTTP status (null: no answer). */
export class BatchApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** GET /batches: batches per page (the API's most), and how many pages a search reads. */
const PAGE_SIZE = 100;
const FIND_PAGES = 10;

/** A body streamed as it is sent, with its length and media type. */
interface Streamed {
  stream: () => Readable;
  length: number;
  type: string;
}

export class BatchApi {
  constructor(private readonly route: BatchRoute) {}

  /**
   * Uploads a JSONL file; its file id. The multipart body (two fields: `purpose` and the file) is
   * streamed from the disk as it is sent: FormData with a file-backed Blob reads the whole file
   * into memory and keeps it (200 MB at a batch's limit), which the host's memory budget for
   * 50,000 waiting requests (SPEC §12) cannot afford.
   */
  async upload(file: string, name: string): Promise<string> {
    const boundary = `aiython-batch-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${JSON.stringify(name)}\r\nContent-Type: application/jsonl\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* parts() {
      yield head;
      yield* fs.createReadStream(file);
      yield tail;
    }
    const length = head.length + fs.statSync(file).size + tail.length;
    const body = { stream: () => Readable.from(parts()), length, type: `multipart/form-data; boundary=${boundary}` };
    return idOf(await this.json("POST", "/files", body), "POST /files");
  }

  /** Creates the batch, its `metadata` naming it (string values: the API's rule). */
  async create(inputFileId: string, metadata: Record<string, string>): Promise<string> {
    const body = JSON.stringify({ input_file_id: inputFileId, endpoint: CHAT_ENDPOINT, completion_window: "24h", metadata });
    return idOf(await this.json("POST", "/batches", body), "POST /batches");
  }

  /**
   * The id of the batch whose metadata holds `key: value`, or null. The list is newest first and
   * a run's batch is recent: at most FIND_PAGES pages are read.
   */
  async find(key: string, value: string): Promise<string | null> {
    let after: string | null = null;
    for (let page = 0; page < FIND_PAGES; page++) {
      const query: string = `?limit=${PAGE_SIZE}${after === null ? "" : `&after=${encodeURIComponent(after)}`}`;
      const list = (await this.json("GET", `/batches${query}`)) as { data?: unknown; has_more?: unknown } | null;
      const data = Array.isArray(list?.data) ? (list.data as { id?: unknown; metadata?: Record<string, unknown> | null }[]) : [];
      const found = data.find((batch) => batch.metadata?.[key] === value);
      if (found) return idOf(found, "GET /batches");
      const last = data[data.length - 1]?.id;
      if (list?.has_more !== true || typeof last !== "string") return null;
      after = last;
    }
    return null;
  }

  async state(batchId: string): Promise<BatchState> {
    const batch = (await this.json("GET", `/batches/${encodeURIComponent(batchId)}`)) as Record<string, unknown>;
    const counts = batch.request_counts as BatchState["counts"] | undefined;
    return {
      status: typeof batch.status === "string" ? batch.status : "unknown",
      outputFileId: typeof batch.output_file_id === "string" ? batch.output_file_id : null,
      errorFileId: typeof batch.error_file_id === "string" ? batch.error_file_id : null,
      counts: counts && typeof counts.total === "number" ? counts : null,
    };
  }

  /**
   * An output or error file's bytes as they arrive, never held whole (a file may be 200 MB):
   * node:http(s) streams the body with backpressure. A transfer that breaks off throws a
   * BatchApiError while it is read.
   */
  async *content(fileId: string): AsyncGenerator<Buffer> {
    const path = `/files/${encodeURIComponent(fileId)}/content`;
    let answer: IncomingMessage;
    try {
      answer = await exchange(this.url(path), "GET", { ...this.auth(), "accept-encoding": "gzip, deflate, br" });
    } catch (error) {
      throw this.unreachable("GET", path, error);
    }
    const status = answer.statusCode ?? 500;
    if (status < 200 || status > 299) {
      answer.resume(); // the provider's error body is never shown
      throw this.refused(status, "GET", path);
    }
    try {
      for await (const chunk of decoded(answer)) yield chunk as Buffer;
    } catch (error) {
      throw this.unreachable("GET", path, error);
    }
  }

  private async json(method: string, path: string, body?: string | Streamed): Promise<unknown> {
    const response = await this.send(method, path, body);
    try {
      return await response.json();
    } catch {
      throw new BatchApiError(`${method} ${path} at ${this.route.apiBase} did not answer JSON`, response.status);
    }
  }

  private async send(method: string, path: string, body?: string | Streamed): Promise<Response> {
    const headers: Record<string, string> = body === undefined ? {} : { "content-type": typeof body === "string" ? "application/json" : body.type };
    Object.assign(headers, this.auth());
    const url = this.url(path);
    let response: Response;
    try {
      response =
        typeof body === "object"
          ? await streamed(url, { ...headers, "content-length": String(body.length) }, body.stream())
          : await fetch(url, { method, headers, body, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      throw this.unreachable(method, path, error);
    }
    if (response.ok) return response;
    await response.body?.cancel(); // the provider's error body is never shown
    throw this.refused(response.status, method, path);
  }

  private url(path: string): string {
    return `${this.route.apiBase.replace(/\/+$/, "")}${path}`;
  }

  /** The Authorization header, when the route has a key (never printed). */
  private auth(): Record<string, string> {
    return this.route.apiKey ? { authorization: `Bearer ${this.route.apiKey}` } : {};
  }

  /** No answer, or an answer broken off: named by its cause's code. */
  private unreachable(method: string, path: string, error: unknown): BatchApiError {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code ?? (error as Error).name;
    return new BatchApiError(`${method} ${path} at ${this.route.apiBase} failed (${code})`, null);
  }

  /** An answer that is not 2xx. */
  private refused(status: number, method: string, path: string): Error {
    if (status === 404 && (path === "/files" || path === "/batches")) return new BatchUnsupportedError(unsupported(this.route.apiBase, `${method} ${path}`));
    if (status === 401 || status === 403) {
      const env = this.route.apiKeyEnv ? ` (check ${this.route.apiKeyEnv})` : "";
      return new BatchApiError(`the server at ${this.route.apiBase} refused the key${env}: HTTP ${status} to ${method} ${path}`, status);
    }
    return new BatchApiError(`${method} ${path} at ${this.route.apiBase} answered HTTP ${status}`, status);
  }
}

function idOf(value: unknown, what: string): string {
  const id = (value as { id?: unknown } | null)?.id;
  if (typeof id !== "string" || id === "") throw new BatchApiError(`${what} answered without an id`, 200);
  return id;
}

function unsupported(apiBase: string, what: string): string {
  return (
    `--batch: the server at ${apiBase} has no Batch API (${what} answered 404). ` +
    "Write the requests for an engine such as vllm run-batch with --batch=dir:PATH, " +
    "put a proxy that speaks the OpenAI Batch API (LiteLLM's) in front of it, or run without --batch"
  );
}
