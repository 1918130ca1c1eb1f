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
//
// `post` is the same transport without the WHATWG wrapping, for a request whose whole answer is
// read at once (post-attempt.ts): the status, a header view and the body text, with the same
// failures. Building Response/Headers objects and streams costs more than the request itself
// against a fast server.
//
// A body, whole or streamed, larger than `maxBodyBytes` (`max_response_mb`) is not read on
// (body-cap.ts).

import http, { type IncomingMessage } from "node:http";
import type * as Https from "node:https";
import { Readable } from "node:stream";
import { urlToHttpOptions } from "node:url";
import { capped, type TransportLimits, wholeBody } from "./body-cap.js";
import type { StopSignal } from "../stop-signal.js";
import { collectLargeGarbage } from "../large-garbage.js";

export { ResponseTooLargeError, type TransportLimits } from "./body-cap.js";

type Fetch = typeof fetch;
export type Protocol = "http:" | "https:";

/** Statuses whose Response may not have a body. */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

let https: Promise<typeof Https> | null = null;

/** node:https (TLS) is loaded for the first https route only; a warm-up may load it early. */
export function loadHttps(): Promise<typeof Https> {
  return (https ??= import("node:https"));
}

/** An answer read whole by `post`: what a failure needs (status, headers) and the body's text. */
export interface PostReply {
  status: number;
  headers: { get(name: string): string | null };
  /** The body; its reader may clear it once read (post-attempt.ts). */
  text: string;
}

/** A POST of a whole body whose answer is read whole; failures as fetch's (see the header). */
export type Post = (url: URL, headers: Record<string, string>, body: string, signal?: StopSignal) => Promise<PostReply>;

/** The agent a request to a protocol goes through (at once when it is made already). */
export type AgentSource = (protocol: Protocol) => http.Agent | Promise<http.Agent>;

/** One keep-alive agent per protocol, made on first use. */
function keepAliveAgents(): AgentSource {
  const agents = new Map<Protocol, http.Agent>();
  const make = async (protocol: Protocol) => {
    const options = { keepAlive: true, maxSockets: Infinity, maxTotalSockets: Infinity };
    const agent = protocol === "http:" ? new http.Agent(options) : new (await loadHttps()).Agent(options);
    agents.set(protocol, agent);
    return agent;
  };
  return (protocol) => agents.get(protocol) ?? make(protocol);
}

/** A fetch and a post whose connections are kept alive between requests, sharing their agents. */
export function keepAliveTransport(limits: TransportLimits = {}): { fetch: Fetch; post: Post } {
  return transportWith(keepAliveAgents(), limits);
}

/** The transport over the given agents (rehearsal.ts gives one whose connection never leaves the process). */
export function transportWith(agentFor: AgentSource, limits: TransportLimits = {}): { fetch: Fetch; post: Post } {
  const cap = limits.maxBodyBytes ?? Number.POSITIVE_INFINITY;
  /** Sends one request; `onResponse` takes the answer, `reject` every failure before it. */
  const send = async (
    url: URL,
    init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; signal?: StopSignal },
    onResponse: (response: IncomingMessage) => void,
    reject: (e: unknown) => void,
  ) => {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`fetch failed: ${url.protocol} URLs are not supported`);
    const { signal, body, headers } = init;
    if (signal?.aborted) throw signal.reason;
    const found = agentFor(url.protocol);
    const agent = found instanceof http.Agent ? found : await found;
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    // Object.assign, not a spread: docs/architecture.md, "Memory per block".
    const options = Object.assign({}, requestOptions(url), { method: init.method, headers: headerList(url, headers), agent });
    const request = (url.protocol === "http:" ? http.request : (await loadHttps()).request)(options, onResponse);
    if (signal) abortWith(request, signal);
    request.on("error", (error) => reject(isAbort(error) ? abortReason(signal, error) : new TypeError("fetch failed", { cause: error })));
    request.end(body);
  };
  const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const options = { method: init.method ?? "GET", headers: headersOf(init.headers), body: bodyOf(init.body), signal: init.signal ?? undefined };
    return new Promise<Response>((resolve, reject) => {
      send(url, options, (response) => answer(response, cap, resolve, reject), reject).catch(reject);
    });
  }) as Fetch;
  const post: Post = (url, headers, body, signal) =>
    new Promise<PostReply>((resolve, reject) => {
      send(url, { method: "POST", headers, body, signal }, (response) => answerWhole(response, cap, resolve, reject), reject).catch(reject);
    });
  return { fetch, post };
}

/**
 * What http.request makes of a URL (urlToHttpOptions), made once per URL object: a route's URL is
 * made once for the run (model-client.ts), so its requests skip the conversion. The result is the
 * same as passing the URL itself.
 */
const optionsOfUrl = new WeakMap<URL, Readonly<http.RequestOptions>>();

function requestOptions(url: URL): Readonly<http.RequestOptions> {
  let options = optionsOfUrl.get(url);
  if (!options) optionsOfUrl.set(url, (options = urlToHttpOptions(url)));
  return options;
}

/**
 * The request's headers as the raw list http.request takes, in the order and spelling it would
 * write them for the object (each as given, then the Host it adds): it writes the list as it is,
 * without keeping a header table per request. The object itself when http.request would add or
 * treat a header otherwise (credentials in the URL, a Host or Expect header of the caller's).
 */
function headerList(url: URL, headers: Record<string, string>): Record<string, string> | string[] {
  if (url.username !== "" || url.password !== "") return headers;
  const list: string[] = [];
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower === "host" || lower === "expect") return headers;
    list.push(name, headers[name]);
  }
  // http.request's Host: the host name (IPv6 in brackets) and the port unless it is the scheme's, as URL.host writes it.
  list.push("Host", url.host);
  return list;
}

/** The response's status, or null after rejecting as fetch does when it is not one fetch accepts. */
function usableStatus(response: IncomingMessage, reject: (e: unknown) => void): number | null {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status <= 599) return status;
  response.destroy();
  reject(new TypeError("fetch failed", { cause: new Error(`unexpected HTTP status ${status}`) }));
  return null;
}

/** A fetch whose connections are kept alive between requests, one agent per protocol. */
export function keepAliveFetch(): Fetch {
  return keepAliveTransport().fetch;
}

function answer(response: IncomingMessage, cap: number, resolve: (r: Response) => void, reject: (e: unknown) => void): void {
  const status = usableStatus(response, reject);
  if (status === null) return;
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
    capped(
      response,
      cap,
      (chunk) => stream.push(chunk) || response.pause(),
      (error) => stream.destroy(error),
    );
    response.on("end", () => stream.push(null));
    response.on("error", (error) => stream.destroyed || stream.destroy(terminated(error)));
    resolve(new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, init));
    return;
  }
  wholeBody(response, cap, (body) => resolve(new Response(body, init)), reject);
  response.on("error", (error) => reject(terminated(error)));
}

/** The whole answer as text, for `post`. */
function answerWhole(response: IncomingMessage, cap: number, resolve: (r: PostReply) => void, reject: (e: unknown) => void): void {
  const status = usableStatus(response, reject);
  if (status === null) return;
  const raw = response.headers;
  const headers = {
    get(name: string): string | null {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
  wholeBody(
    response,
    cap,
    (body) => {
      collectLargeGarbage(body.length); // the socket's chunks, copied into the body
      resolve({ status, headers, text: body.toString("utf8") });
    },
    reject,
  );
  response.on("error", (error) => reject(isAbort(error) ? error : new TypeError("terminated", { cause: error })));
}

function bodyOf(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError("fetch failed: only string and byte request bodies are supported");
}

function headersOf(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      out[name] = value;
    });
  } else if (Array.isArray(headers)) for (const [name, value] of headers) out[name.toLowerCase()] = value;
  else if (headers) for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}

/**
 * What node:http does with a request's `signal` option — an abort destroys the request with an
 * AbortError whose cause is the signal's reason — with one listener, dropped when the request
 * closes, instead of the end-of-stream watch the option sets on every request.
 */
function abortWith(request: http.ClientRequest, signal: StopSignal): void {
  const onAbort = (): void => {
    request.destroy(Object.assign(new Error("The operation was aborted", { cause: signal.reason }), { name: "AbortError", code: "ABORT_ERR" }));
  };
  if (signal.aborted) return onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  request.once("close", () => signal.removeEventListener("abort", onAbort));
}

function isAbort(error: Error): boolean {
  return error.name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR";
}

/** What fetch rejects with on abort: the signal's reason when it is an error, else an AbortError. */
function abortReason(signal: StopSignal | undefined, error: Error): unknown {
  return signal?.reason instanceof Error ? signal.reason : error;
}
