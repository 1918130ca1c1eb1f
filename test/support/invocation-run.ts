// Helpers for the tool-loop tests (test/orchestrator-*.test.ts): one invocation run against a
// scripted model and a fake frame (its result with the model, the frame and the events), a literal
// outcome, the tool results a request carries, and a finish handler that type-checks a literal
// against Literal['bug', 'billing'].

import { runInvocation, type InvocationEvent } from "../../src/invocation/orchestrator.js";
import type { ModelRequest } from "../../src/model-port.js";
import type { PauseRequest } from "../../src/bridge/protocol.js";
import { ScriptedModel, type ScriptStep } from "./scripted-model.js";
import { FakeFrame, ok, opError, type OpHandler } from "./fake-frame.js";
import { expressionBlock, settings } from "./pause-requests.js";

export const literal = (value: unknown) => ({ outcome: { kind: "literal", value } });

export async function run(options: {
  request?: PauseRequest;
  steps: ScriptStep[];
  handlers?: Partial<Record<string, OpHandler>>;
  settings?: Parameters<typeof settings>[0];
  now?: () => number;
  signal?: AbortSignal;
}) {
  const model = new ScriptedModel(options.steps);
  const frame = new FakeFrame(options.handlers);
  const events: InvocationEvent[] = [];
  const result = await runInvocation({
    id: "inv-1",
    request: options.request ?? expressionBlock(),
    settings: settings(options.settings),
    model,
    frame,
    onEvent: (event) => events.push(event),
    now: options.now,
    signal: options.signal,
  });
  return { ...result, model, frame, events };
}

/** The tool messages a request carries after its last assistant message. */
export function lastToolResults(request: ModelRequest): { id: string; body: unknown }[] {
  const messages = request.messages;
  const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
  return messages.slice(lastAssistant + 1).flatMap((m) => (m.role === "tool" ? [{ id: m.tool_call_id, body: JSON.parse(m.content) }] : []));
}

export const literalTypeCheck: OpHandler = (args) => {
  const value = (args.outcome as { value?: unknown }).value;
  return value === "bug" || value === "billing"
    ? ok({ handle: "object-9", type: "str", module: "builtins", qualname: "str", value })
    : opError("TypeContractError", `kind: expected Literal['bug', 'billing'], got str '${String(value)}'`);
};
