// instant-model: SPEC §12's "instant loopback model", an OpenAI-compatible chat-completions server
// on 127.0.0.1 (node:http) that does no work of its own: it parses no request, and answers every
// POST to /v1/chat/completions at once with one reply made when it starts, `finish` with the
// literal it was given, its ids counted. It keeps only each request's path and body size. Used by
// bench/invocations (every block there expects an int) and by the build's code-cache training on
// a program with AI blocks (build/train-blocks.mjs). loopback-model.ts, which tests use, parses and
// records every request and answers from what it says: ≈ 0.9 ms of CPU a request on this machine,
// on the critical path of every block, so no measure of what aiython's side of a block costs.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface InstantRequest {
  path: string;
  bodyBytes: number;
}

export interface InstantModel {
  /** Base URL ending in /v1. */
  url: string;
  /** Every request received, in arrival order (a caller may empty it). */
  requests: InstantRequest[];
  close(): Promise<void>;
}

/** The reply's body around its counted ids: `${head}${n}${middle}${n}${tail}`. */
function replyParts(literal: unknown): string[] {
  const call = { id: "call_instant_\u0000", type: "function", function: { name: "finish", arguments: JSON.stringify({ outcome: { kind: "literal", value: literal } }) } };
  const message = { role: "assistant", content: null, tool_calls: [call] };
  const reply = {
    id: "chatcmpl-instant-\u0000",
    object: "chat.completion",
    created: 0,
    model: "instant",
    choices: [{ index: 0, message, logprobs: null, finish_reason: "tool_calls" }],
  };
  return JSON.stringify(reply).split("\\u0000"); // JSON writes the NUL of each id as \u0000
}

export async function startInstantModel(literal: unknown): Promise<InstantModel> {
  const requests: InstantRequest[] = [];
  const [head, middle, tail] = replyParts(literal);
  let count = 0;
  const answer = (req: IncomingMessage, res: ServerResponse, bodyBytes: number) => {
    const path = (req.url ?? "/").split("?")[0];
    requests.push({ path, bodyBytes });
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(`{"error":{"message":"the instant model has no ${req.method} ${path}"}}`);
      return;
    }
    count += 1;
    const body = `${head}${count}${middle}${count}${tail}`;
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => answer(req, res, bodyBytes));
  });
  server.on("connection", (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
