// Loopback fakes of every endpoint SPEC §10's capabilities call, on one node:http server on
// 127.0.0.1, for end-to-end tests and `npm run demo`. Every answer is deterministic and written in
// one write (headers and body together; a split write stalls 40 ms on loopback):
//   POST /v1/embeddings            bag-of-words vectors (64 dims, L2-normalised): texts that share
//                                   words are near each other, so semantic search means something
//   POST /v1/rerank                 Cohere/Jina shape, relevance = share of the query's words found
//   POST /v1/chat/completions       vision and document questions: "seen N images: <prompt>" unless
//                                   a `chat` responder is given
//   POST /v1/audio/transcriptions   the text of a WAV's LIST/INFO ICMT chunk (fixtures carry it)
//   POST /v1/audio/speech           a small WAV whose ICMT chunk holds the input text
//   POST /v1/images/generations|edits   a 1×1 PNG as b64_json
//   POST /v1/videos, GET /v1/videos/{id}[/content]   a job API; jobs stay in_progress while
//                                   `holdVideos` is set, then complete on the next poll
// Each request is recorded with when it arrived and when it was answered; `delayMs` per path
// holds answers back (two requests in flight at once prove concurrency), `drop` closes the
// connection unanswered and `status` answers an HTTP error instead.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { field, parseMultipart, type FormPart } from "./multipart.js";

export interface FakeRequest {
  method: string;
  path: string;
  json: any;
  form: FormPart[];
  headers: Record<string, string | string[] | undefined>;
  receivedAt: number;
  answeredAt: number | null;
}

export interface FakeOptions {
  /** ms to hold answers back, by path (e.g. "/v1/embeddings"). */
  delayMs?: Record<string, number>;
  /** Answers chat completions; default "seen N images: <text>". */
  chat?: (body: any) => string;
  /** Close the connection without answering, by path (the request arrived; no answer came). */
  drop?: Set<string>;
  /** Answer with this HTTP status (an OpenAI-style error body, Retry-After: 0), by path. */
  status?: Record<string, number>;
}

export interface CapabilityFakes {
  url: string;
  requests: FakeRequest[];
  count(path: string | RegExp): number;
  /** Video jobs stay in_progress while true. */
  holdVideos: boolean;
  close(): Promise<void>;
}

export const DIMENSIONS = 64;

export function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.filter((w) => w.length > 2) ?? []
  );
}

/** Deterministic bag-of-words embedding: each word adds to one of 64 dimensions. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of wordsOf(text)) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    vector[h % DIMENSIONS] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/** A WAV file of `ms` of silence whose LIST/INFO ICMT chunk holds `comment`. */
export function wavWithComment(comment: string, ms = 100): Buffer {
  const rate = 8000;
  const samples = Buffer.alloc(Math.round((rate * ms) / 1000) * 2);
  const text = Buffer.from(`${comment}\0`, "utf8");
  const padded = text.length % 2 === 0 ? text : Buffer.concat([text, Buffer.alloc(1)]);
  const icmt = Buffer.concat([Buffer.from("ICMT"), u32(text.length), padded]);
  const list = Buffer.concat([Buffer.from("LIST"), u32(4 + icmt.length), Buffer.from("INFO"), icmt]);
  const fmt = Buffer.concat([Buffer.from("fmt "), u32(16), u16(1), u16(1), u32(rate), u32(rate * 2), u16(2), u16(16)]);
  const data = Buffer.concat([Buffer.from("data"), u32(samples.length), samples]);
  const body = Buffer.concat([Buffer.from("WAVE"), fmt, list, data]);
  return Buffer.concat([Buffer.from("RIFF"), u32(body.length), body]);
}

export function wavComment(bytes: Buffer): string | null {
  const at = bytes.indexOf("ICMT");
  if (at === -1) return null;
  const length = bytes.readUInt32LE(at + 4);
  return bytes
    .subarray(at + 8, at + 8 + length)
    .toString("utf8")
    .replace(/\0+$/, "");
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
export const FAKE_MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.alloc(12), Buffer.from("fake video")]);

function send(res: ServerResponse, status: number, body: Buffer | string | object, type = "application/json"): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  res.writeHead(status, { "content-type": type, "content-length": bytes.length });
  res.end(bytes);
}

export async function startCapabilityFakes(opts: FakeOptions = {}): Promise<CapabilityFakes> {
  const requests: FakeRequest[] = [];
  const sockets = new Set<Socket>();
  const jobs = new Map<string, { status: string }>();
  const fakes: CapabilityFakes = {
    url: "",
    requests,
    count: (path) => requests.filter((r) => (typeof path === "string" ? r.path === path : path.test(r.path))).length,
    holdVideos: false,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  function answer(req: FakeRequest, res: ServerResponse): void {
    const path = req.path;
    const body = req.json ?? {};
    if (path === "/v1/embeddings") {
      const inputs: string[] = typeof body.input === "string" ? [body.input] : body.input;
      const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) }));
      const tokens = inputs.reduce((n, t) => n + wordsOf(t).length, 0);
      return send(res, 200, { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
    }
    if (path === "/v1/rerank") {
      const query = new Set(wordsOf(body.query));
      const results = (body.documents as string[]).map((doc, index) => {
        const words = new Set(wordsOf(doc));
        const hits = [...query].filter((w) => words.has(w)).length;
        return { index, relevance_score: query.size === 0 ? 0 : hits / query.size };
      });
      results.sort((a, b) => b.relevance_score - a.relevance_score);
      return send(res, 200, { results: results.slice(0, body.top_n ?? results.length), usage: { total_tokens: 10 } });
    }
    if (path === "/v1/chat/completions") {
      const content = (body.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : [{ type: "text", text: m.content }]));
      const text = content
        .filter((p: any) => p.type === "text")
        .map((p: any) => p.text)
        .join(" ");
      const images = content.filter((p: any) => p.type === "image_url").length;
      const reply = opts.chat ? opts.chat(body) : `seen ${images} images: ${text}`;
      return send(res, 200, {
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }],
        usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
      });
    }
    if (path === "/v1/audio/transcriptions") {
      const file = req.form.find((p) => p.name === "file");
      return send(res, 200, { text: file ? (wavComment(file.data) ?? "(silence)") : "" });
    }
    if (path === "/v1/audio/speech") return send(res, 200, wavWithComment(String(body.input ?? "")), "audio/wav");
    if (path === "/v1/images/generations" || path === "/v1/images/edits") {
      const n = Number(body.n ?? field(req.form, "n") ?? 1);
      return send(res, 200, { created: 0, data: Array.from({ length: n }, () => ({ b64_json: PNG_1X1.toString("base64") })) });
    }
    if (path === "/v1/videos" && req.method === "POST") {
      const id = `video_${jobs.size + 1}`;
      jobs.set(id, { status: "queued" });
      return send(res, 200, { id, object: "video", status: "queued", model: field(req.form, "model"), prompt: field(req.form, "prompt") });
    }
    const job = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    if (job && jobs.has(job[1])) {
      const state = jobs.get(job[1])!;
      if (job[2]) return state.status === "completed" ? send(res, 200, FAKE_MP4, "video/mp4") : send(res, 404, { error: { code: "not_ready" } });
      state.status = fakes.holdVideos ? "in_progress" : "completed";
      return send(res, 200, { id: job[1], object: "video", status: state.status, progress: state.status === "completed" ? 100 : 40 });
    }
    send(res, 404, { error: { message: `no fake for ${req.method} ${path}`, code: "not_found" } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const type = String(req.headers["content-type"] ?? "");
    let json: unknown = null;
    if (type.includes("json") && raw.length > 0) json = JSON.parse(raw.toString("utf8"));
    const form = type.includes("multipart/form-data") ? parseMultipart(raw, type) : [];
    if (form.length > 0) json = Object.fromEntries(form.filter((p) => p.filename === null).map((p) => [p.name, p.data.toString("utf8")]));
    const path = (req.url ?? "/").split("?")[0];
    const record: FakeRequest = { method: req.method ?? "GET", path, json, form, headers: { ...req.headers }, receivedAt: Date.now(), answeredAt: null };
    requests.push(record);
    const delay = opts.delayMs?.[path] ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (opts.drop?.has(path)) {
      res.socket?.destroy();
      return;
    }
    record.answeredAt = Date.now();
    const status = opts.status?.[path];
    if (status !== undefined) {
      const body = Buffer.from(JSON.stringify({ error: { message: `fake status ${status}`, type: "fake_error", code: null } }));
      res.writeHead(status, { "content-type": "application/json", "content-length": body.length, "retry-after": "0" });
      res.end(body);
      return;
    }
    answer(record, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, { error: { message: String(error) } }));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  fakes.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fakes;
}

/** An aiython.toml routing every capability to the fakes (and the chat model to `modelUrl`). */
export function capabilityConfig(fakesUrl: string, modelUrl: string, names: readonly string[] = ALL_ROUTED, keyEnv: string | null = null): string {
  const lines = ["version = 3", `model = { model = "stand-in", api_base = "${modelUrl}" }`, ""];
  for (const name of names) {
    lines.push(`[capabilities.${name}]`, `model = "fake-${name.replace(/_/g, "-")}"`, `api_base = "${fakesUrl}"`);
    if (keyEnv !== null) lines.push(`api_key_env = "${keyEnv}"`);
    lines.push("");
  }
  return lines.join("\n");
}

export const ALL_ROUTED = ["vision", "document_understanding", "embedding", "reranking", "speech_to_text", "text_to_speech", "image_generation", "image_editing", "video"] as const;
