// The HTTP transport under the openai client: a `fetch` over node:http and node:https with one
// keep-alive agent per model client, so the requests of a run reuse their connections and skip
// undici's fetch machinery (most of a block's local cost against a fast server). The agents set no
// socket cap: in-flight requests are bounded above this layer by max_concurrency
// (run/invocation-runner.ts), never below it.
//
// What the client needs of fetch, and no more: a string or byte body, the request's headers and
// abort signal, and a WHATWG Response — buffered, or streamed as it arrives for server-sent
// events. Redirects are not followed (an API answers in place) and no compression is asked for.
// Failures look like fetch's, so classify-failure.ts reads them alike: an abort rejects with the
// signal's AbortError, a connection that fails or drops is a TypeError ("fetch failed" before the
// response, "terminated" inside its body) whose cause carries the system error code.

import http, { type IncomingMessage } from "node:http";
import type * as Https from "node:https";
import { Readable } from "node:stream";

type Fetch = typeof fetch;
type Protocol = "http:" | "https:";

/** Statuses whose Response may not have a body. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

let https: Promise<typeof Https> | null = null;

/** node:https (TLS) is loaded for the first https route only; a warm-up may load it early. */
export function loadHttps(): Promise<typeof Https> {
  return (https ??= import("node:https"));
}

/** A fetch whose connections are kept alive between requests, one agent per protocol. */
export function keepAliveFetch(): Fetch {
  const agents = new Map<Protocol, http.Agent>();
  const agentFor = async (protocol: Protocol): Promise<http.Agent> => {
    let agent = agents.get(protocol);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: Infinity, maxTotalSockets: Infinity };
      agent = protocol === "http:" ? new http.Agent(options) : new (await loadHttps()).Agent(options);
      agents.set(protocol, agent);
    }
    return agent;
  };
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`fetch failed: ${url.protocol} URLs are not supported`);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const agent = await agentFor(url.protocol);
    const send = url.protocol === "http:" ? http.request : (await loadHttps()).request;
    return new Promise<Response>((resolve, reject) => {
      const body = bodyOf(init.body);
      const headers = headersOf(init.headers);
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const request = send(url, { method: init.method ?? "GET", headers, agent, signal }, (response) => answer(response, resolve, reject));
      request.on("error", (error) => reject(isAbort(error) ? abortReason(signal, error) : new TypeError("fetch failed", { cause: error })));
      request.end(body);
    });
  }) as Fetch;
}

function answer(response: IncomingMessage, resolve: (r: Response) => void, reject: (e: unknown) => void): void {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) {
    response.destroy();
    reject(new TypeError("fetch failed", { cause: new Error(`unexpected HTTP status ${status}`) }));
    return;
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i], response.rawHeaders[i + 1]);
  const init = { status, statusText: response.statusMessage ?? "", headers };
  if (NULL_BODY_STATUS.has(status)) {
    response.resume();
    resolve(new Response(null, init));
    return;
  }
  const terminated = (error: Error) => (isAbort(error) ? error : new TypeError("terminated", { cause: error }));
  if (/^text\/event-stream\b/i.test(headers.get("content-type") ?? "")) {
    const stream = new Readable({ read: () => response.resume() });
    response.on("data", (chunk: Buffer) => stream.push(chunk) || response.pause());
    response.on("end", () => stream.push(null));
    response.on("error", (error) => stream.destroy(terminated(error)));
    resolve(new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, init));
    return;
  }
  const chunks: Buffer[] = [];
  response.on("data", (chunk: Buffer) => chunks.push(chunk));
  response.on("end", () => resolve(new Response(Buffer.concat(chunks), init)));
  response.on("error", (error) => reject(terminated(error)));
}

function bodyOf(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("fetch failed: only string and byte request bodies are supported");
}

function headersOf(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(headers)) for (const [name, value] of headers) out[name.toLowerCase()] = value;
  else if (headers) for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

function isAbort(error: Error): boolean {
  return error.name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR";
}

/** What fetch rejects with on abort: the signal's reason when it is an error, else an AbortError. */
function abortReason(signal: AbortSignal | undefined, error: Error): unknown {
  return signal?.reason instanceof Error ? signal.reason : error;
}
