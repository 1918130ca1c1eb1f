// Conversation content in the shapes of the OpenTelemetry GenAI semantic conventions, for the
// opt-in content attributes (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true):
// `gen_ai.system_instructions` (parts), `gen_ai.input.messages` and `gen_ai.output.messages`
// (messages of parts: text, tool_call, tool_call_response). Only JSON strings leave here, each
// passed through the redactor by the caller.

import type { ChatMessage, ToolCall } from "../../model-port.js";

type Part = { type: "text"; content: string } | { type: "tool_call"; id: string; name: string; arguments: unknown } | { type: "tool_call_response"; id: string; response: string };

interface GenAiMessage {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

export function systemInstructions(messages: readonly ChatMessage[]): string | null {
  const parts = messages.filter((m) => m.role === "system").map((m): Part => ({ type: "text", content: m.content }));
  return parts.length > 0 ? JSON.stringify(parts) : null;
}

export function inputMessages(messages: readonly ChatMessage[]): string {
  return JSON.stringify(messages.filter((m) => m.role !== "system").map(genAiMessage));
}

export function outputMessages(content: string | null, toolCalls: readonly ToolCall[]): string {
  const message = genAiMessage({ role: "assistant", content, tool_calls: [...toolCalls] });
  return JSON.stringify([{ ...message, finish_reason: toolCalls.length > 0 ? "tool_call" : "stop" }]);
}

function genAiMessage(message: ChatMessage): GenAiMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, parts: [{ type: "text", content: message.content }] };
    case "tool":
      return { role: "tool", parts: [{ type: "tool_call_response", id: message.tool_call_id, response: message.content }] };
    case "assistant": {
      const parts: Part[] = message.content ? [{ type: "text", content: message.content }] : [];
      for (const call of message.tool_calls ?? []) parts.push({ type: "tool_call", id: call.id, name: call.function.name, arguments: parsed(call.function.arguments) });
      return { role: "assistant", parts };
    }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
