// Which rule answers a request: the facts a rule can match on, read from the request's two JSON
// user messages (SPEC §5.1: mode, statement, location; related values; in recovery the exception),
// the first rule whose every condition holds, and for a request no rule answers, the nearest rule
// and what differs, for the AIError that names them.

import type { ChatMessage } from "../model-port.js";
import { valueMatches } from "./exact-json.js";
import type { Rule, RuleMode, Rules } from "./rules.js";

export interface RequestFacts {
  mode: RuleMode;
  statement: string;
  file: string;
  line: number;
  related: Map<string, unknown>;
  exception: string | null;
  /** The last message, when it is a tool's answer (a later round of the same invocation). */
  lastTool: string | null;
}

export function factsOf(messages: readonly ChatMessage[]): RequestFacts {
  const users = messages.filter((m) => m.role === "user").map((m) => parsed(m.content));
  const stable = users[0] ?? {};
  const live = users[1] ?? {};
  const location = (stable.location ?? {}) as { file?: string; line?: number };
  const related = new Map<string, unknown>();
  for (const object of (live.related_objects ?? []) as { name: string; value?: unknown }[]) related.set(object.name, object.value);
  return {
    mode: stable.mode === "recovery" ? "recovery" : "block",
    statement: String(stable.statement ?? ""),
    file: String(location.file ?? ""),
    line: Number(location.line ?? 0),
    related,
    exception: (live.recovery as { exception_type?: string } | undefined)?.exception_type ?? null,
    lastTool: refusal(messages),
  };
}

/** The tool answers after the model's last reply: the one that failed, else the last; null on a first round. */
function refusal(messages: readonly ChatMessage[]): string | null {
  const answers: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--) answers.unshift((messages[i] as { content: string }).content);
  if (answers.length === 0) return null;
  return answers.find((text) => text.includes('"status":"error"')) ?? (answers.at(-1) as string);
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** Each condition of a rule, and whether the request meets it (a rule that answers with `recover` matches recoveries only). */
function conditions(rule: Rule, facts: RequestFacts): { label: string; holds: boolean }[] {
  const found: { label: string; holds: boolean }[] = [];
  const mode = rule.mode ?? (rule.answers.some((a) => a.recover !== undefined) ? "recovery" : undefined);
  if (mode !== undefined) found.push({ label: `mode ${mode}, the request's is ${facts.mode}`, holds: mode === facts.mode });
  if (rule.statement !== undefined) found.push({ label: `statement contains "${rule.statement}"`, holds: flat(facts.statement).includes(flat(rule.statement)) });
  if (rule.file !== undefined) {
    const fileHolds = sameFile(facts.file, rule.file);
    found.push({ label: `at ${rule.file}${rule.line ? `:${rule.line}` : ""}`, holds: fileHolds && (rule.line === undefined || rule.line === facts.line) });
  }
  if (rule.exception !== undefined)
    found.push({ label: `exception ${rule.exception}, the request's is ${facts.exception ?? "none"}`, holds: sameType(facts.exception, rule.exception) });
  for (const [name, value] of Object.entries(rule.related ?? {})) {
    const holds = facts.related.has(name) && valueMatches(value, facts.related.get(name));
    found.push({ label: facts.related.has(name) ? `related ${name} matching ${String(value)}` : `related ${name}, which the block does not mention`, holds });
  }
  return found;
}

/** `JSONDecodeError` names `json.decoder.JSONDecodeError`: a rule may leave out the module. */
const sameType = (actual: string | null, wanted: string): boolean => actual !== null && (actual === wanted || actual.endsWith(`.${wanted}`));

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** `tickets.py` matches `app/tickets.py`: the rule's path is the end of the request's, by whole parts. */
function sameFile(actual: string, wanted: string): boolean {
  const a = actual.replaceAll("\\", "/");
  const w = wanted.replaceAll("\\", "/").replace(/^\.\//, "");
  return a === w || a.endsWith(`/${w}`);
}

export function matchingRule(rules: Rules, facts: RequestFacts): Rule | null {
  return rules.rules.find((rule) => conditions(rule, facts).every((c) => c.holds)) ?? null;
}

/** Why no rule answers: the request, the nearest rule (most conditions met) and what it lacks. */
export function missMessage(rules: Rules, facts: RequestFacts): string {
  const kind = facts.mode === "block" ? "the block" : `the recovery of ${facts.exception ?? "an exception"} in`;
  const head = `no rule of ${rules.shown} answers ${kind} "${shortened(facts.statement)}" at ${facts.file}:${facts.line}`;
  let nearest: { rule: Rule; unmet: string[]; score: number } | null = null;
  for (const rule of rules.rules) {
    const all = conditions(rule, facts);
    const unmet = all.filter((c) => !c.holds).map((c) => c.label);
    const score = all.length === 0 ? 0 : (all.length - unmet.length) / all.length;
    if (nearest === null || score > nearest.score) nearest = { rule, unmet, score };
  }
  const fix = `add a [[rule]] for it to ${rules.shown}`;
  if (nearest === null) return `${head}: the file has no rules; ${fix}`;
  const { rule, unmet } = nearest;
  return `${head}; the nearest is rule ${rule.index}${rule.name ? ` ("${rule.name}")` : ""}, which wants ${unmet.join("; ")}; ${fix}`;
}

export function shortened(text: string): string {
  const one = flat(text);
  return one.length > 100 ? `${one.slice(0, 99)}…` : one;
}
