// A rule's answer as the tool calls a model would send (SPEC §5.2): for a block, `execute` first
// when the answer has one, then `finish` with a literal, an expression, none or an error; for a
// recovery, `execute` first, then `recover` (complete with the answer's value, retry or reraise;
// complete when the answer names no action, reraise for an error, since recovery has no error
// outcome). A request that comes back with a tool's error (the program refused the answer) ends
// the invocation: a rule answers once and cannot read the refusal.

import type { ToolCall } from "../model-port.js";
import type { Answer, Rule } from "./rules.js";
import type { RequestFacts } from "./match.js";

let calls = 0;

function call(name: string, args: string): ToolCall {
  return { id: `script-${++calls}`, type: "function", function: { name, arguments: args } };
}

function outcomeOf(answer: Answer): string | null {
  if (answer.literal !== undefined) return `{"kind":"literal","value":${answer.literal}}`;
  if (answer.expression !== undefined) return JSON.stringify({ kind: "expression", code: answer.expression });
  return null;
}

export function replyCalls(answer: Answer, facts: RequestFacts, rule: Rule, shown: string): ToolCall[] {
  const before = answer.execute !== undefined ? [call("execute", JSON.stringify({ code: answer.execute }))] : [];
  const outcome = outcomeOf(answer);
  if (facts.mode === "block") {
    const finish = answer.error !== undefined ? JSON.stringify({ kind: "error", reason: answer.error }) : (outcome ?? `{"kind":"none"}`);
    return [...before, call("finish", `{"outcome":${finish}}`)];
  }
  if (answer.error !== undefined) return reraiseCalls(answer.error);
  const action = answer.recover ?? "complete";
  const withValue = action === "complete" && outcome !== null ? `,"outcome":${outcome}` : "";
  const explanation = JSON.stringify(answer.explanation ?? `${ruleName(rule)} of ${shown}`);
  return [...before, call("recover", `{"action":${JSON.stringify(action)}${withValue},"explanation":${explanation}}`)];
}

/** The end of an invocation whose scripted answer the program refused (a tool's error came back). */
export function refusedCalls(rule: Rule, facts: RequestFacts, shown: string): ToolCall[] {
  const said = (facts.lastTool ?? "").replace(/\s+/g, " ").slice(0, 300);
  const reason = `the answer of ${ruleName(rule)} in ${shown} was refused: ${said}`;
  if (facts.mode === "block") return [call("finish", JSON.stringify({ outcome: { kind: "error", reason } }))];
  return reraiseCalls(reason);
}

export function reraiseCalls(explanation: string): ToolCall[] {
  return [call("recover", JSON.stringify({ action: "reraise", explanation }))];
}

export const ruleName = (rule: Rule): string => `rule ${rule.index}${rule.name ? ` ("${rule.name}")` : ""}`;
