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
// This file holds the server and the CLI (which must live here to run as `loopback-model.ts`);
// the reply format is loopback-replies.ts's and the echo-finish responder echo-finish.ts's, both
// re-exported here so tests import this file only.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { AddressInfo, Socket } from "node:net";
import { echoFinishResponder } from "./echo-finish.js";
import { completionBody, errorBody, renderedCalls, wait, writeStream, type RecordedRequest, type Responder, type ScriptedReply } from "./loopback-replies.js";

export { echoFinishResponder } from "./echo-finish.js";
export { LOOPBACK_SECRET, finishCall, toolCall, type RecordedRequest, type Responder, type ScriptedReply, type ScriptedToolCall } from "./loopback-replies.js";

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
    if (reply.stream ?? request.body?.stream === true) {
      await writeStream(res, request, reply, renderedCalls(reply, counter), `chatcmpl-loop-${counter}`);
      return;
    }
    res.writeHead(200, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(completionBody(request, reply, counter)));
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
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      body,
      rawBody,
      headers: { ...req.headers },
      path,
      receivedAt: Date.now(),
      connection: connectionOf.get(req.socket) ?? 0,
    };
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
