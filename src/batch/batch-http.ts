// The Batch API's transfers by node:http(s) (batch-api.ts), bodies streamed both ways: fetch
// (undici) keeps a streamed request body's chunks until the request is done, so a 200 MB upload
// would cost 200 MB of memory; and an output file is read as it arrives, never whole.

import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { type Readable, pipeline as streamPipeline } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

/** A request's timeout; by node:http(s), the socket's: this long without a byte. */
export const HTTP_TIMEOUT_MS = 120_000;

/** Sends `body` (if any); the answer, its body left unread to be streamed. */
export function exchange(url: string, method: string, headers: Record<string, string>, body?: Readable): Promise<IncomingMessage> {
  const send = url.startsWith("https:") ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(url, { method, headers, timeout: HTTP_TIMEOUT_MS }, resolve);
    request.on("timeout", () => request.destroy(Object.assign(new Error("timeout"), { cause: { code: "ETIMEDOUT" } })));
    request.on("error", (error) => reject(Object.assign(new Error(error.message), { cause: error })));
    if (body)
      pipeline(body, request).catch(() => undefined); // a failed request reports through its own error
    else request.end();
  });
}

/** POSTs a stream, the answer (a small JSON object) buffered into a Response. */
export async function streamed(url: string, headers: Record<string, string>, body: Readable): Promise<Response> {
  const answer = await exchange(url, "POST", headers, body);
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  return new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 500, headers: { "content-type": String(answer.headers["content-type"] ?? "") } });
}

/** An answer's body as it arrives, decompressed when the server compressed it. */
export function decoded(answer: IncomingMessage): Readable {
  const decoder = decoderOf(
    String(answer.headers["content-encoding"] ?? "")
      .trim()
      .toLowerCase(),
  );
  // A failure of either stream ends the other with it, so the reader sees the error.
  return decoder ? streamPipeline(answer, decoder, () => undefined) : answer;
}

function decoderOf(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.createGunzip();
  if (encoding === "deflate") return zlib.createInflate();
  if (encoding === "br") return zlib.createBrotliDecompress();
  return null;
}
