// What real OpenAI-compatible servers do differently, and how the client adapts (SPEC §5): each
// quirk is recorded from the server's own documentation or issue tracker in
// test/fixtures/servers/*.json and replayed by the loopback model (test/server-quirks.test.ts).
//
//   - A server that rejects `tool_choice: "required"` (vLLM before 0.8.3: 400 `tool_choice =
//     "required" is not supported!`; OpenRouter when no provider of the model honours it: 404 `No
//     endpoints found that support the provided 'tool_choice' value`; any 4xx whose error names
//     tool_choice) is asked again at once with "auto", and the route remembers "auto" for the
//     rest of the run. Ollama's /v1 ignores tool_choice without an error: nothing to do there.
//   - A reply whose tool call arrives as JSON text in `content` (small local models: Llama 3's
//     `{"name", "parameters"}`, Hermes/Qwen's `<tool_call>…</tool_call>`, a ```json fence) is read
//     as that call when it names a tool the request offered.
//   - Failures no retry can mend fail at once with the launch flag to add: llama.cpp's server
//     without `--jinja` (HTTP 500 `tools param requires --jinja flag`), vLLM without
//     `--enable-auto-tool-choice` (400 once "auto" is asked).
//
// Error bodies are read here only to recognise these cases (at most a few KiB, never stored or
// shown): messages keep to the status and a fixed wording (SPEC §9).

import type { ToolCall, ToolSpec } from "../model-port.js";
import { displayBase, ModelCallError } from "./errors.js";
import { freshCallId } from "./normalise-response.js";
import type { ChatRoute } from "./types.js";

/** What an error body says that matters, or null. */
export type ServerHint = "tool_choice_rejected" | "needs_jinja" | "needs_auto_tool_choice_flags";

export type ToolChoice = "required" | "auto";

const BODY_LIMIT = 8192;
/** Routes (base URL and model) that rejected "required" during this run. */
const autoRoutes = new Set<string>();

const routeKey = (route: ChatRoute): string => `${route.apiBase}\n${route.model}`;

/** The tool_choice to send on this route: "required" until the server has rejected it. */
export function toolChoiceFor(route: ChatRoute): ToolChoice {
  return autoRoutes.has(routeKey(route)) ? "auto" : "required";
}

export function rememberAutoToolChoice(route: ChatRoute): void {
  autoRoutes.add(routeKey(route));
}

/** For tests: forget what this run learned. */
export function forgetToolChoices(): void {
  autoRoutes.clear();
}

/** The start of an error response's body, read from a clone so the client still reads its own. */
export async function errorBodyText(response: Response): Promise<string | null> {
  if (response.ok) return null;
  try {
    return (await response.clone().text()).slice(0, BODY_LIMIT);
  } catch {
    return null;
  }
}

/** What an HTTP error with this status and body text tells about the server. */
export function serverHint(status: number, body: string | null): ServerHint | null {
  if (body === null) return null;
  if (/--jinja/.test(body)) return "needs_jinja";
  if (/enable-auto-tool-choice/.test(body)) return "needs_auto_tool_choice_flags";
  if (status >= 400 && status < 500 && /tool[_ ]choice/i.test(body)) return "tool_choice_rejected";
  return null;
}

/** The failure to report for a hint that no retry and no fallback can mend, or null. */
export function hintError(route: ChatRoute, status: number, hint: ServerHint | null | undefined): ModelCallError | null {
  const where = `${displayBase(route.apiBase)} (HTTP ${status}) for route ${route.id}`;
  if (hint === "needs_jinja") {
    return new ModelCallError("malformed", `the llama.cpp server at ${where} refuses function tools: start llama-server with --jinja (and a chat template that supports tools)`);
  }
  if (hint === "needs_auto_tool_choice_flags") {
    return new ModelCallError(
      "malformed",
      `the server at ${where} rejects tool_choice "required" and has no automatic tool choice: start vLLM 0.8.3 or newer, ` +
        `or start it with --enable-auto-tool-choice --tool-call-parser NAME (the parser for your model)`,
    );
  }
  return null;
}

/**
 * Tool calls written as JSON in `content` (SPEC §5), when the reply has no real ones: one call
 * or a list of calls, each `{name, arguments|parameters}` or `{function: {name, arguments}}`,
 * bare, fenced (```json) or in `<tool_call>` tags. Only names the request offered count, so
 * prose that happens to be JSON stays prose.
 */
export function toolCallsFromContent(content: string | null, tools: readonly ToolSpec[]): ToolCall[] | null {
  if (content === null || tools.length === 0) return null;
  const offered = new Set(tools.map((t) => t.function.name));
  const calls: ToolCall[] = [];
  for (const text of jsonCandidates(content)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return null;
    }
    const entries = Array.isArray(parsed) ? parsed : isObject(parsed) && Array.isArray(parsed.tool_calls) ? parsed.tool_calls : [parsed];
    for (const entry of entries) {
      const call = asCall(entry, offered);
      if (call === null) return null;
      calls.push(call);
    }
  }
  return calls.length > 0 ? calls : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The JSON texts a content string holds: `<tool_call>` bodies, the fenced blocks that open at the
 * start of a line (small local models often write a lead-in sentence first: "I'll finish now.",
 * then the call in a ```json fence), or the whole.
 */
function jsonCandidates(content: string): string[] {
  const tagged = [...content.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)].map((m) => m[1].trim());
  if (tagged.length > 0) return tagged;
  const fenced = [...content.matchAll(/(?:^|\n)[ \t]*```(?:json)?[ \t]*\n([\s\S]*?)\n[ \t]*```/g)].map((m) => m[1].trim());
  const texts = fenced.length > 0 ? fenced : [content.trim()];
  return texts.every((text) => text.startsWith("{") || text.startsWith("[")) ? texts : [];
}

function asCall(entry: unknown, offered: Set<string>): ToolCall | null {
  if (!isObject(entry)) return null;
  const fn = isObject(entry.function) ? entry.function : entry;
  const name = fn.name;
  if (typeof name !== "string" || !offered.has(name)) return null;
  const args = fn.arguments ?? fn.parameters ?? {};
  const text = typeof args === "string" ? args : JSON.stringify(args);
  const id = typeof entry.id === "string" && entry.id !== "" ? entry.id : freshCallId();
  return { id, type: "function", function: { name, arguments: text } };
}
