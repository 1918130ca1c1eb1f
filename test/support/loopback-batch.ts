// A loopback OpenAI-compatible Batch API on 127.0.0.1 for tests and benchmarks (node:http only):
//   POST /v1/files (multipart, purpose=batch)       → a file object
//   GET  /v1/files/{id}/content                      → the file's text
//   POST /v1/batches {input_file_id, endpoint, completion_window, metadata?}
//   GET  /v1/batches?limit=N&after=ID                → newest first, cursor paged (has_more)
//   GET  /v1/batches/{id}                            → validating → in_progress → completed
// with output and error files, failed and malformed lines and expired batches as the test asks
// (loopback-batch-jobs.ts), and live chat completions too (POST /v1/chat/completions), answered
// by the same responder, so a test can count what went live. `noBatchApi` answers 404 on /files
// and /batches, as a plain chat server does. `unanswered` and `dropCreate` lose a POST /batches
// after or before it creates the batch. Every response is one write.
//
// Also a standalone process for benchmarks and manual tries:
//   node --import tsx test/support/loopback-batch.ts --echo-finish [--hold]
// prints its base URL (ending in /v1) on stdout and serves until SIGINT/SIGTERM; `--hold` keeps
// every batch in progress.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import type { AddressInfo, Socket } from "node:net";
import { batchObject, BatchJobs, parseInput, type BatchRecord, type BatchRules } from "./loopback-batch-jobs.js";
import { completionBody, errorBody, type RecordedRequest, type Responder } from "./loopback-replies.js";
import { echoFinishResponder } from "./echo-finish.js";
import { field, parseMultipart } from "./multipart.js";

export type { BatchLine, BatchRecord } from "./loopback-batch-jobs.js";

export interface LoopbackBatchOptions extends Partial<Omit<BatchRules, "responder">> {
  responder: Responder;
  /** A chat server without the Batch API: 404 on /files and /batches. */
  noBatchApi?: boolean;
}

export interface LoopbackBatch {
  /** Base URL ending in /v1. */
  url: string;
  /** Every request received, in arrival order (bodies of uploads as their text). */
  requests: RecordedRequest[];
  /** The batches created, in order. */
  batches: BatchRecord[];
  /** Live chat completion requests. */
  liveChats(): RecordedRequest[];
  /** Keep every batch in progress (`true`) until set back. */
  hold(on: boolean): void;
  /** Create the batch of a POST /batches but never answer it (`true`), as a provider whose answer is lost. */
  unanswered(on: boolean): void;
  /** Neither create the batch of a POST /batches nor answer it (`true`), as a request lost on its way to the provider. */
  dropCreate(on: boolean): void;
  problems: string[];
  close(): Promise<void>;
}

export async function startLoopbackBatch(options: LoopbackBatchOptions): Promise<LoopbackBatch> {
  const files = new Map<string, string>();
  const store = (content: string): string => {
    const id = `file-loop-${files.size + 1}`;
    files.set(id, content);
    return id;
  };
  const jobs = new BatchJobs({ pollsPerStatus: 1, ...options }, store);
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const sockets = new Set<Socket>();
  let live = 0;
  let unanswered = false;
  let dropCreate = false;

  const send = (res: ServerResponse, status: number, body: string | object, type = "application/json"): void => {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const raw = Buffer.concat(parts);
    const path = (req.url ?? "/").split("?")[0];
    let body: any;
    try {
      body = raw.length > 0 && req.headers["content-type"]?.startsWith("application/json") ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      body = undefined;
    }
    const request: RecordedRequest = { method: req.method ?? "GET", body, rawBody: raw.toString("utf8"), headers: { ...req.headers }, path, receivedAt: Date.now(), connection: 0 };
    requests.push(request);
    const method = req.method ?? "GET";
    if (method === "POST" && path === "/v1/chat/completions") {
      const reply = await options.responder(request, live++);
      if ((reply.status ?? 200) !== 200) return send(res, reply.status ?? 500, errorBody(reply.status ?? 500));
      return send(res, 200, completionBody(request, reply, 100000 + live));
    }
    if (options.noBatchApi && (path.startsWith("/v1/files") || path.startsWith("/v1/batches"))) return send(res, 404, errorBody(404, `loopback has no ${method} ${path}`));
    if (method === "POST" && path === "/v1/files") {
      const form = parseMultipart(raw, req.headers["content-type"]);
      const file = form.find((part) => part.name === "file");
      if (field(form, "purpose") !== "batch" || !file) return send(res, 400, errorBody(400, "purpose must be batch and a file is needed"));
      const id = store(file.data.toString("utf8"));
      return send(res, 200, { id, object: "file", bytes: file.data.length, created_at: 0, filename: file.filename, purpose: "batch" });
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === "GET" && content) {
      const text = files.get(content[1]);
      return text === undefined ? send(res, 404, errorBody(404, "no such file")) : send(res, 200, text, "application/octet-stream");
    }
    if (method === "POST" && path === "/v1/batches" && dropCreate) return;
    if (method === "POST" && path === "/v1/batches") {
      const text = files.get(body?.input_file_id);
      if (text === undefined || body?.endpoint !== "/v1/chat/completions" || body?.completion_window !== "24h") {
        return send(res, 400, errorBody(400, "input_file_id, endpoint /v1/chat/completions and completion_window 24h are needed"));
      }
      const created = jobs.create(body.input_file_id, parseInput(text), body.metadata ?? null);
      return unanswered ? undefined : send(res, 200, batchObject(created));
    }
    if (method === "GET" && path === "/v1/batches") return send(res, 200, listPage(jobs.batches, new URL(req.url ?? "/", "http://loopback").searchParams));
    const batch = /^\/v1\/batches\/([^/]+)$/.exec(path);
    if (method === "GET" && batch) {
      const found = jobs.batches.find((b) => b.id === batch[1]);
      if (!found) return send(res, 404, errorBody(404, "no such batch"));
      await jobs.poll(found);
      return send(res, 200, batchObject(found));
    }
    send(res, 404, errorBody(404, `loopback has no ${method} ${path}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      problems.push(`handler failed: ${String(error)}`);
      if (!res.headersSent) send(res, 500, errorBody(500, "loopback handler failed"));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    batches: jobs.batches,
    liveChats: () => requests.filter((r) => r.path === "/v1/chat/completions"),
    hold: (on) => void (jobs.holding = on),
    unanswered: (on) => void (unanswered = on),
    dropCreate: (on) => void (dropCreate = on),
    problems,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A page of GET /batches: newest first, from after the `after` id, `limit` (1–100, default 20) of them. */
function listPage(batches: readonly BatchRecord[], query: URLSearchParams): object {
  const newest = [...batches].reverse();
  const after = query.get("after");
  const start = after === null ? 0 : newest.findIndex((b) => b.id === after) + 1;
  const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 20) || 20));
  const page = newest.slice(start, start + limit);
  return { object: "list", data: page.map(batchObject), first_id: page[0]?.id ?? null, last_id: page[page.length - 1]?.id ?? null, has_more: start + limit < newest.length };
}

// ---- standalone process ------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!process.argv.includes("--echo-finish")) {
    process.stderr.write("usage: node --import tsx test/support/loopback-batch.ts --echo-finish [--hold]\n");
    process.exit(2);
  }
  const server = await startLoopbackBatch({ responder: echoFinishResponder() });
  server.hold(process.argv.includes("--hold"));
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void main();
