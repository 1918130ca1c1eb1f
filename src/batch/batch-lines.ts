// The JSONL of SPEC §14, in OpenAI's batch formats (which `vllm run-batch` reads and writes too):
// one request line per model request — `{custom_id, method: "POST", url: "/v1/chat/completions",
// body}`, the body exactly as the live client would post it — and the output and error files'
// lines read back into answers by custom_id, one line at a time (result-stream.ts streams the
// files). A line that is not JSON, lacks a custom_id, or holds no usable completion is a failed
// line, never an error of the run; a request with no line at all in the files failed too (the
// caller says why).

import type { ModelRequest, TokenUsage, ToolCall } from "../model-port.js";
import { normaliseCompletion } from "../model/normalise-response.js";
import { requestBody } from "../model/post-attempt.js";

export const CHAT_ENDPOINT = "/v1/chat/completions";

/** What one line of a batch came back as. */
export type LineResult = { ok: true; message: { content: string | null; tool_calls: ToolCall[] }; usage?: TokenUsage } | { ok: false; reason: string };

/** The body of a request line: exactly what the live client would post. */
export function lineBody(model: string, request: ModelRequest): string {
  return requestBody(model, request, request.toolChoice);
}

/** The request line of one model request. */
export function requestLine(customId: string, body: string): string {
  return `{"custom_id":${JSON.stringify(customId)},"method":"POST","url":"${CHAT_ENDPOINT}","body":${body}}`;
}

/** The answers an output or error file holds, by custom_id; later lines of one id win over earlier ones. Files of a batch are streamed instead (result-stream.ts). */
export function readResults(text: string, into: Map<string, LineResult> = new Map()): Map<string, LineResult> {
  for (const raw of text.split("\n")) readLine(raw, into);
  return into;
}

/** One line of an output or error file (its "\n" taken off) added to the answers by custom_id. */
export function readLine(raw: string, into: Map<string, LineResult>): void {
  if (raw.trim() === "") return;
  const parsed = parseLine(raw);
  if (parsed === null) return; // nothing says whose line it was: its request gets "no answer"
  if (into.get(parsed.customId)?.ok && !parsed.result.ok) return; // an answer is not undone by an error line
  into.set(parsed.customId, parsed.result);
}

function parseLine(raw: string): { customId: string; result: LineResult } | null {
  let line: unknown;
  try {
    line = JSON.parse(raw);
  } catch {
    return salvageId(raw);
  }
  if (!isObject(line) || typeof line.custom_id !== "string") return null;
  return { customId: line.custom_id, result: resultOf(line) };
}

/** A line that is not JSON but names its custom_id near its start still fails that request at once. */
function salvageId(raw: string): { customId: string; result: LineResult } | null {
  const match = /^\s*\{\s*"custom_id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
  if (!match) return null;
  return { customId: JSON.parse(`"${match[1]}"`) as string, result: { ok: false, reason: "its line in the output is not JSON" } };
}

function resultOf(line: Record<string, unknown>): LineResult {
  const error = line.error;
  if (isObject(error)) return { ok: false, reason: typeof error.code === "string" ? error.code : "the batch reported an error" };
  const response = line.response;
  if (!isObject(response)) return { ok: false, reason: "its line has no response" };
  if (response.status_code !== 200) return { ok: false, reason: `HTTP ${String(response.status_code)}` };
  const normalised = normaliseCompletion(response.body);
  if (!normalised.ok) return { ok: false, reason: `its answer is unusable: ${normalised.detail}` };
  return { ok: true, message: normalised.message, ...(normalised.usage ? { usage: normalised.usage } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
