// The cap on a model answer's body (`max_response_mb`): a body, whole or streamed, larger than
// `maxBodyBytes` is not read on — the connection is dropped and the request fails with
// ResponseTooLargeError — so an answer of tens of megabytes never sits in the host's memory.
// http-transport.ts reads bodies through `capped`; classify-failure.ts names the error to the
// user (errors.ts's tooLargeError), and it is not retried: the same request would bring the same
// answer.

import type { IncomingMessage } from "node:http";

/** A body past the transport's cap (see the header). */
export class ResponseTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the response body is larger than ${limitBytes} bytes`);
    this.name = "ResponseTooLargeError";
  }
}

/** What a transport holds an answer to. */
export interface TransportLimits {
  /** Bytes of one response body; default none. */
  maxBodyBytes?: number;
}

/** Calls `onChunk` for each chunk until the body passes `cap`, then drops the connection and calls `tooLarge`. */
export function capped(response: IncomingMessage, cap: number, onChunk: (chunk: Buffer) => void, tooLarge: (error: ResponseTooLargeError) => void): void {
  let received = 0;
  response.on("data", (chunk: Buffer) => {
    received += chunk.length;
    if (received <= cap) return onChunk(chunk);
    if (received - chunk.length > cap) return;
    response.destroy();
    tooLarge(new ResponseTooLargeError(cap));
  });
}

/**
 * The whole body, through `capped`: with a Content-Length within the cap its chunks are copied
 * into one buffer of that size as they come (a large answer is not held as chunks and again as
 * their concatenation); otherwise the chunks are joined at the end.
 */
export function wholeBody(response: IncomingMessage, cap: number, done: (body: Buffer) => void, fail: (error: ResponseTooLargeError) => void): void {
  // Nothing here keeps the body once `done` has it: the response outlives it on a kept-alive
  // connection, and a large body is collected as soon as its text is made (large-garbage.ts).
  let chunks: Buffer[] = [];
  const declared = Number(response.headers["content-length"]);
  if (Number.isSafeInteger(declared) && declared > 0 && declared <= cap) {
    let body: Buffer | null = Buffer.allocUnsafe(declared);
    let at = 0;
    capped(response, cap, (chunk) => (body !== null && at + chunk.length <= declared ? (at += chunk.copy(body, at)) : chunks.push(chunk)), fail);
    response.on("end", () => {
      const read = (body ?? Buffer.alloc(0)).subarray(0, at);
      const whole = chunks.length === 0 ? read : Buffer.concat([read, ...chunks]);
      body = null;
      chunks = [];
      done(whole);
    });
    return;
  }
  capped(response, cap, (chunk) => chunks.push(chunk), fail);
  response.on("end", () => {
    const whole = Buffer.concat(chunks);
    chunks = [];
    done(whole);
  });
}
