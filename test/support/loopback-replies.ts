// The reply format of the loopback model (loopback-model.ts): what a test scripts (replies, tool
// calls), what the server records of each request, the OpenAI-style error bodies (each holding
// LOOPBACK_SECRET, so tests can prove it never reaches a message), and a reply rendered as a
// server-sent event stream whose text and tool-call arguments arrive split across chunks.

import type { ServerResponse } from "node:http";

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

export function errorBody(status: number, message?: string): string {
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
export function wait(ms: number, res: ServerResponse): Promise<void> {
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

export interface RenderedCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A scripted reply's tool calls as the server sends them; `counter` numbers the answer. */
export function renderedCalls(reply: ScriptedReply, counter: number): RenderedCall[] {
  return (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_loop_${counter}_${i}`,
    type: "function",
    function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
  }));
}

/** A non-streamed chat completion body for a scripted 200 reply (the Batch API's output lines carry it too). */
export function completionBody(request: Pick<RecordedRequest, "body">, reply: ScriptedReply, counter: number): object {
  const calls = renderedCalls(reply, counter);
  const message = { role: "assistant", content: reply.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  return {
    id: `chatcmpl-loop-${counter}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: request.body?.model ?? "loopback",
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    ...(reply.usage ? { usage: reply.usage } : {}),
  };
}

export async function writeStream(res: ServerResponse, request: RecordedRequest, reply: ScriptedReply, calls: RenderedCall[], id: string): Promise<void> {
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
