// How the journal stores a request's JSON (SPEC §11): the parts that repeat from request to request
// — the system prompt, a block's stable message, the tool schemas — are kept once each, in
// `request_parts` under their SHA-256, and a row's `request_json` holds `{"$part":"<sha256>"}` in
// their place. A row's text with its parts put back is the request's canonical JSON byte for byte
// (canonical JSON is compositional: a part's text is the same inside the whole), whose hash is the
// row's key. A row written before parts existed holds the whole text; putting parts back leaves it
// as it is. The token cannot occur inside a JSON string (its quotes would be escaped).

import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json.js";
import type { Statements } from "./statements.js";

/** Parts shorter than this stay in the row: a reference costs about 75 bytes. */
const MIN_PART = 256;
const PART = /\{"\$part":"([0-9a-f]{64})"\}/g;

/**
 * The row's text for a request's canonical JSON, its long parts written to `request_parts`: each
 * message and the tool list whose canonical text is found in the request's text is replaced there
 * by its token, so the row's text with its parts put back is the given text exactly.
 */
export function storeRequestJson(s: Statements, requestJson: string): string {
  let request: { messages?: unknown; tools?: unknown };
  try {
    request = JSON.parse(requestJson) as typeof request;
  } catch {
    return requestJson;
  }
  if (typeof request !== "object" || request === null) return requestJson;
  const parts = [...(Array.isArray(request.messages) ? request.messages : []), ...(request.tools !== undefined ? [request.tools] : [])];
  let stored = requestJson;
  for (const part of parts) {
    const text = canonicalJson(part);
    const at = text.length < MIN_PART ? -1 : stored.indexOf(text);
    if (at < 0) continue;
    const hash = createHash("sha256").update(text, "utf8").digest("hex");
    s.sql("INSERT OR IGNORE INTO request_parts (hash, json) VALUES (?, ?)").run(hash, text);
    stored = `${stored.slice(0, at)}{"$part":"${hash}"}${stored.slice(at + text.length)}`;
  }
  return stored;
}

/** A row's `request_json` with its parts put back: the request's canonical JSON. */
export function requestJsonOf(s: Statements, stored: string): string {
  if (!stored.includes('{"$part":"')) return stored;
  return stored.replace(PART, (token, hash: string) => {
    const json = s.sql("SELECT json FROM request_parts WHERE hash = ?").pluck().get(hash);
    return typeof json === "string" ? json : token;
  });
}
