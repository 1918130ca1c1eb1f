// Turns a provider's chat completion — one JSON body, or the chunks of a stream — into the port's
// `{content, tool_calls}` and token usage, or into a description of what is wrong with it.
// Lenient where servers differ harmlessly (missing `tool_calls` → [], missing call id → a fresh
// one, `arguments` sent as an object → its JSON text, missing `arguments` → "{}"); strict where
// nothing usable came back. Tool call `arguments` strings pass through untouched: judging them is
// batch validation's job (SPEC §5.3).

import type { TokenUsage, ToolCall } from "../model-port.js";

export type Normalised = { ok: true; message: { content: string | null; tool_calls: ToolCall[] }; usage?: TokenUsage } | { ok: false; detail: string };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

let callIds = 0;

/**
 * An id for a tool call the server sent without one: counted, so it never repeats in a run, and
 * with a random part so it looks like no id a model would write. (Not node:crypto, which a block
 * would otherwise load for this alone.)
 */
export function freshCallId(): string {
  callIds += 1;
  const count = callIds.toString(36).padStart(4, "0");
  const noise = Math.random().toString(36).slice(2, 10).padEnd(8, "0");
  return `call_${count}${noise}`;
}

export function mapUsage(raw: unknown): TokenUsage | undefined {
  if (!isObject(raw)) return undefined;
  const usage: TokenUsage = {};
  for (const key of ["prompt_tokens", "completion_tokens", "total_tokens"] as const) {
    if (typeof raw[key] === "number") usage[key] = raw[key] as number;
  }
  const details = raw.prompt_tokens_details;
  if (isObject(details) && typeof details.cached_tokens === "number") usage.cached_tokens = details.cached_tokens;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function argumentsText(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (raw === undefined || raw === null) return "{}";
  return JSON.stringify(raw);
}

function contentText(raw: unknown): string | null {
  if (typeof raw === "string") return raw;
  // A few servers send content as parts: [{type: "text", text}].
  if (Array.isArray(raw)) {
    const texts = raw.filter(isObject).map((part) => (typeof part.text === "string" ? part.text : ""));
    return texts.join("");
  }
  return null;
}

function toolCallsOf(raw: unknown): ToolCall[] | string {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return "tool_calls is not a list";
  const calls: ToolCall[] = [];
  for (const entry of raw) {
    if (!isObject(entry) || !isObject(entry.function)) return "a tool call has no function";
    const name = entry.function.name;
    if (typeof name !== "string" || name === "") return "a tool call has no function name";
    const id = typeof entry.id === "string" && entry.id !== "" ? entry.id : freshCallId();
    calls.push({ id, type: "function", function: { name, arguments: argumentsText(entry.function.arguments) } });
  }
  return calls;
}

export function normaliseCompletion(body: unknown): Normalised {
  if (typeof body === "string") {
    return body.trimStart().startsWith("data:")
      ? { ok: false, detail: "server-sent events came back to a non-streaming request; turn streaming on for this route" }
      : { ok: false, detail: "the body is not JSON" };
  }
  if (!isObject(body)) return { ok: false, detail: "the body is not a JSON object" };
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) return { ok: false, detail: "it has no choices" };
  const first = choices[0];
  if (!isObject(first) || !isObject(first.message)) return { ok: false, detail: "the first choice has no message" };
  const toolCalls = toolCallsOf(first.message.tool_calls);
  if (typeof toolCalls === "string") return { ok: false, detail: toolCalls };
  const usage = mapUsage(body.usage);
  return { ok: true, message: { content: contentText(first.message.content), tool_calls: toolCalls }, ...(usage ? { usage } : {}) };
}

interface PartialCall {
  id: string;
  name: string;
  /** Argument fragments, or the whole text when a server sent an object. */
  args: string;
}

/** Builds one completion from the chunks of a stream, tool calls joined from their deltas. */
export class StreamAssembler {
  private chunks = 0;
  private content: string | null = null;
  private readonly calls: PartialCall[] = [];
  private readonly byIndex = new Map<number, PartialCall>();
  private usage: TokenUsage | undefined;
  private problem: string | null = null;

  add(chunk: unknown): void {
    this.chunks += 1;
    if (this.problem) return;
    if (!isObject(chunk)) {
      this.problem = "a stream chunk is not a JSON object";
      return;
    }
    const usage = mapUsage(chunk.usage);
    if (usage) this.usage = usage;
    if (!Array.isArray(chunk.choices)) return;
    const choice = chunk.choices.find((c) => isObject(c) && (c.index === undefined || c.index === 0));
    if (!isObject(choice) || !isObject(choice.delta)) return;
    const delta = choice.delta;
    if (typeof delta.content === "string") this.content = (this.content ?? "") + delta.content;
    if (Array.isArray(delta.tool_calls)) for (const part of delta.tool_calls) this.addCallDelta(part);
  }

  private addCallDelta(part: unknown): void {
    if (!isObject(part)) {
      this.problem = "a tool call delta is not a JSON object";
      return;
    }
    const id = typeof part.id === "string" ? part.id : "";
    let call: PartialCall | undefined;
    if (typeof part.index === "number") {
      call = this.byIndex.get(part.index);
      if (!call) {
        call = { id: "", name: "", args: "" };
        this.byIndex.set(part.index, call);
        this.calls.push(call);
      }
    } else {
      // No index (some servers): a new id starts a new call, anything else continues the last one.
      call = this.calls[this.calls.length - 1];
      if (!call || (id !== "" && call.id !== "" && id !== call.id)) {
        call = { id: "", name: "", args: "" };
        this.calls.push(call);
      }
    }
    if (id !== "" && call.id === "") call.id = id;
    const fn = isObject(part.function) ? part.function : {};
    // Most servers send the name once; tolerate repeats of the whole name and split names.
    if (typeof fn.name === "string" && fn.name !== "" && fn.name !== call.name) call.name += fn.name;
    if (typeof fn.arguments === "string") call.args += fn.arguments;
    else if (isObject(fn.arguments)) call.args = JSON.stringify(fn.arguments);
  }

  finish(): Normalised {
    if (this.problem) return { ok: false, detail: this.problem };
    if (this.chunks === 0) {
      return { ok: false, detail: "the stream carried no events; the server may not stream — turn streaming off for this route" };
    }
    const raw = this.calls.map((call) => ({ id: call.id, function: { name: call.name, arguments: call.args === "" ? undefined : call.args } }));
    const toolCalls = toolCallsOf(raw);
    if (typeof toolCalls === "string") return { ok: false, detail: toolCalls };
    return { ok: true, message: { content: this.content, tool_calls: toolCalls }, ...(this.usage ? { usage: this.usage } : {}) };
  }
}
