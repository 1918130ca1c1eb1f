// A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for tests and benchmarks
// (node:http only). It records every request, answers from a script or a responder function,
// and can play each way a provider misbehaves: 429 with Retry-After, 5xx, 401 whose body holds a
// secret-looking string (so tests can prove it never reaches a message), malformed bodies,
// non-JSON tool arguments, slow answers, dropped connections, and streamed answers whose tool
// calls arrive split across chunks. An exhausted script answers HTTP 500 "loopback script
// exhausted" and is noted in `problems`, so a test that under-scripts fails loudly.
//
// Also a standalone process for manual tries and benchmarks:
//   node --import tsx test/support/loopback-model.ts --port 0 --script FILE.json
//   node --import tsx test/support/loopback-model.ts --echo-finish [--finish-literal JSON] [--delay-ms N]
// prints its base URL (ending in /v1) on stdout and serves until SIGINT/SIGTERM.
// About 400 lines: the server, its reply rendering, the echo-finish responder and the CLI share
// one reply format, and the CLI must live in this file to run as `loopback-model.ts`.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { AddressInfo, Socket } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** A string is sent verbatim (even when it is not JSON); an object is sent as its JSON text. */
  arguments: string | object;
  id?: string;
}

export interface ScriptedReply {
  toolCalls?: ScriptedToolCall[];
  content?: string;
  /** HTTP status; anything but 200 gets an OpenAI-style error body unless `rawBody` is given. */
  status?: number;
  headers?: Record<string, string>;
  /** Sent verbatim as the body (content-type application/json unless `headers` says otherwise). */
  rawBody?: string;
  /** Wait before answering. */
  delayMs?: number;
  /** Wait between stream chunks. */
  chunkDelayMs?: number;
  /** Stream this reply as server-sent events; default: whatever the request asked. */
  stream?: boolean;
  usage?: object;
  /** Close the socket without answering. */
  dropConnection?: boolean;
}

export interface RecordedRequest {
  method: string;
  body: any;
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  path: string;
  receivedAt: number;
  /** Which connection carried it: 1 for the first the server accepted, 2 for the next, … */
  connection: number;
}

export type Responder = (req: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

export interface LoopbackModel {
  /** Base URL ending in /v1. */
  url: string;
  port: number;
  /** Every request received, /v1/models included, in arrival order. */
  requests: RecordedRequest[];
  /** Things that went wrong on the server side (exhausted script, responder threw). */
  problems: string[];
  close(): Promise<void>;
  /** Replace the script; chat-completion requests count from 0 again. */
  setScript(script: ScriptedReply[]): void;
  setResponder(responder: Responder): void;
}

/** Appears in every error body the server sends; it must never show up in a client message. */
export const LOOPBACK_SECRET = "sk-loopback-SECRET-7f3a9c21e0b84d56a1";

export function toolCall(name: string, args: string | object, id?: string): ScriptedToolCall {
  return id === undefined ? { name, arguments: args } : { name, arguments: args, id };
}

/** A reply holding one `finish` tool call with this outcome (SPEC §5.2). */
export function finishCall(outcome: object, id?: string): ScriptedReply {
  return { toolCalls: [toolCall("finish", { outcome }, id)] };
}

const ERROR_CODES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_api_key",
  403: "unsupported_country_region_territory",
  404: "model_not_found",
  429: "rate_limit_exceeded",
  500: "server_error",
  503: "overloaded",
};

function errorBody(status: number, message?: string): string {
  return JSON.stringify({
    error: {
      message: message ?? `Loopback error ${status}. Incorrect API key provided: ${LOOPBACK_SECRET}.`,
      type: status === 401 ? "invalid_request_error" : "loopback_error",
      param: null,
      code: ERROR_CODES[status] ?? null,
    },
  });
}

/** Waits `ms`, or less when the connection closes first (client gone, or close() destroyed it). */
function wait(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on("close", done);
  });
}

/** Splits a string into up to `parts` non-empty pieces (fewer when it is short). */
function split(text: string, parts: number): string[] {
  if (text.length === 0) return [""];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

interface RenderedCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

async function writeStream(res: ServerResponse, request: RecordedRequest, reply: ScriptedReply, calls: RenderedCall[], id: string): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers });
  const created = Math.floor(Date.now() / 1000);
  const model = request.body?.model ?? "loopback";
  const send = async (data: object | string): Promise<void> => {
    if (res.destroyed) return;
    res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    if (reply.chunkDelayMs) await wait(reply.chunkDelayMs, res);
  };
  const chunk = (delta: object, finish: string | null = null): object => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  await send(chunk({ role: "assistant", content: null }));
  if (reply.content !== undefined) for (const piece of split(reply.content, 2)) await send(chunk({ content: piece }));
  for (const [index, call] of calls.entries()) {
    await send(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    for (const piece of split(call.function.arguments, 3)) {
      await send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  await send(chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
  if (request.body?.stream_options?.include_usage === true && reply.usage) {
    await send({ id, object: "chat.completion.chunk", created, model, choices: [], usage: reply.usage });
  }
  await send("[DONE]");
  res.end();
}

export interface LoopbackOptions {
  script?: ScriptedReply[];
  responder?: Responder;
  /** Ids listed by GET /v1/models; default ["loopback-model"]. */
  models?: string[];
  /** Port to listen on; default 0 (an ephemeral port). */
  port?: number;
}

export async function startLoopbackModel(opts: LoopbackOptions = {}): Promise<LoopbackModel> {
  let script = opts.script ?? [];
  let responder = opts.responder;
  let chatIndex = 0;
  let counter = 0;
  const requests: RecordedRequest[] = [];
  const problems: string[] = [];
  const sockets = new Set<Socket>();
  const connectionOf = new WeakMap<Socket, number>();
  let connections = 0;

  async function nextReply(request: RecordedRequest): Promise<ScriptedReply> {
    const index = chatIndex++;
    if (responder) {
      try {
        return await responder(request, index);
      } catch (err) {
        problems.push(`responder threw on request ${index}: ${String(err)}`);
        return { status: 500, rawBody: errorBody(500, "loopback responder threw"), headers: { "x-loopback-problem": "responder-threw" } };
      }
    }
    const reply = script[index];
    if (reply) return reply;
    problems.push(`loopback script exhausted: request ${index} has no scripted reply (script has ${script.length})`);
    return { status: 500, rawBody: errorBody(500, "loopback script exhausted"), headers: { "x-loopback-problem": "script-exhausted" } };
  }

  async function answerChat(request: RecordedRequest, res: ServerResponse): Promise<void> {
    const reply = await nextReply(request);
    if (reply.delayMs) await wait(reply.delayMs, res);
    if (res.destroyed) return;
    if (reply.dropConnection) {
      res.socket?.destroy();
      return;
    }
    const status = reply.status ?? 200;
    if (reply.rawBody !== undefined) {
      res.writeHead(status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.rawBody);
      return;
    }
    if (status !== 200) {
      res.writeHead(status, { "content-type": "application/json", ...reply.headers });
      res.end(errorBody(status));
      return;
    }
    counter += 1;
    const calls: RenderedCall[] = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_loop_${counter}_${i}`,
      type: "function",
      function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
    }));
    const id = `chatcmpl-loop-${counter}`;
    if (reply.stream ?? request.body?.stream === true) {
      await writeStream(res, request, reply, calls, id);
      return;
    }
    const message = { role: "assistant", content: reply.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    res.writeHead(200, { "content-type": "application/json", ...reply.headers });
    res.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: request.body?.model ?? "loopback",
        choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
        ...(reply.usage ? { usage: reply.usage } : {}),
      }),
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const rawBody = Buffer.concat(parts).toString("utf8");
    let body: unknown;
    try {
      body = rawBody === "" ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const path = (req.url ?? "/").split("?")[0];
    const request: RecordedRequest = { method: req.method ?? "GET", body, rawBody, headers: { ...req.headers }, path, receivedAt: Date.now(), connection: connectionOf.get(req.socket) ?? 0 };
    requests.push(request);
    if (req.method === "GET" && path === "/v1/models") {
      const data = (opts.models ?? ["loopback-model"]).map((id) => ({ id, object: "model", created: 0, owned_by: "loopback" }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data }));
      return;
    }
    if (req.method === "POST" && path === "/v1/chat/completions") {
      await answerChat(request, res);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(errorBody(404, `loopback has no ${req.method} ${path}`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      problems.push(`handler failed: ${String(err)}`);
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(errorBody(500, "loopback handler failed"));
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    connectionOf.set(socket, ++connections);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    problems,
    setScript(next) {
      script = next;
      responder = undefined;
      chatIndex = 0;
    },
    setResponder(next) {
      responder = next;
      chatIndex = 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- echo-finish: an instant model for benchmarks ----------------------------------------------

/** Depth-first search of parsed JSON for the first value under `key`. */
function findKey(value: unknown, key: (name: string) => boolean, depth = 0): unknown {
  if (depth > 8 || typeof value !== "object" || value === null) return undefined;
  for (const [name, inner] of Object.entries(value)) {
    if (key(name)) return inner;
  }
  for (const inner of Object.values(value)) {
    const found = findKey(inner, key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The simplest value a JSON Schema accepts: first enum/const, else the zero of its type. */
function zeroOf(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return null;
  const s = schema as Record<string, unknown>;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  for (const branch of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[branch]) && (s[branch] as unknown[]).length > 0) return zeroOf((s[branch] as unknown[])[0]);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "integer":
    case "number":
      return 0;
    case "string":
      return "";
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/**
 * Answers every request at once with the terminal tool it offers: `finish` with `literal` when
 * given, else — reading the request's JSON user messages — `{"kind":"none"}` unless
 * `requires_result` is true, in which case a literal of the simplest value the output schema (a
 * key ending in "schema") accepts; `recover` with `reraise`. No terminal tool: a content reply.
 */
export function echoFinishResponder(opts: { literal?: unknown; delayMs?: number } = {}): Responder {
  return (request) => {
    const tools: string[] = (request.body?.tools ?? []).map((t: { function?: { name?: string } }) => t.function?.name);
    const delay = opts.delayMs ? { delayMs: opts.delayMs } : {};
    if (tools.includes("finish")) {
      if (opts.literal !== undefined) return { ...delay, ...finishCall({ kind: "literal", value: opts.literal }) };
      const parsed = (request.body?.messages ?? [])
        .filter((m: { role?: string }) => m.role === "user")
        .map((m: { content?: unknown }) => {
          try {
            return JSON.parse(String(m.content));
          } catch {
            return undefined;
          }
        });
      const requires = findKey(parsed, (name) => name === "requires_result");
      if (requires !== true) return { ...delay, ...finishCall({ kind: "none" }) };
      const schema = findKey(parsed, (name) => name.endsWith("schema"));
      return { ...delay, ...finishCall({ kind: "literal", value: zeroOf(schema) }) };
    }
    if (tools.includes("recover")) return { ...delay, toolCalls: [toolCall("recover", { action: "reraise" })] };
    return { ...delay, content: "loopback: the request offered no terminal tool" };
  };
}

// ---- standalone process ------------------------------------------------------------------------

const USAGE = `usage: node --import tsx test/support/loopback-model.ts [--port N] (--script FILE.json | --echo-finish [--finish-literal JSON]) [--delay-ms N]`;

async function main(argv: string[]): Promise<void> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i];
    if (name === "--echo-finish") flags.set(name, "");
    else if (["--port", "--script", "--finish-literal", "--delay-ms"].includes(name) && i + 1 < argv.length) flags.set(name, argv[++i]);
    else throw new Error(`unknown or incomplete option ${name}\n${USAGE}`);
  }
  const delayMs = Number(flags.get("--delay-ms") ?? 0);
  const port = Number(flags.get("--port") ?? 0);
  let options: LoopbackOptions;
  if (flags.has("--script")) {
    const script = JSON.parse(readFileSync(flags.get("--script") as string, "utf8")) as ScriptedReply[];
    if (!Array.isArray(script)) throw new Error(`--script must name a JSON array of replies\n${USAGE}`);
    options = { port, script: delayMs ? script.map((r) => ({ delayMs, ...r })) : script };
  } else if (flags.has("--echo-finish")) {
    const literalText = flags.get("--finish-literal");
    options = { port, responder: echoFinishResponder({ literal: literalText === undefined ? undefined : JSON.parse(literalText), delayMs }) };
  } else {
    throw new Error(`give --script FILE.json or --echo-finish\n${USAGE}`);
  }
  const server = await startLoopbackModel(options);
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => {
    for (const problem of server.problems) process.stderr.write(`loopback: ${problem}\n`);
    process.stderr.write(`loopback: served ${server.requests.length} requests\n`);
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`loopback: ${err.message}\n`);
    process.exit(2);
  });
}
