// A scripted model's rules file (`AIYTHON_MODEL=script:rules.toml`): its shape once read, and the
// checks that turn a TOML document into it. Every fault names the file, the rule and the fix; the
// file is read with the configuration room's TOML reader (integers kept apart from floats, so that
// `1.0` reaches Python as a float and `1` as an int).

import { ConfigError } from "../errors.js";
import { exactJson } from "./exact-json.js";

export type RecoverAction = "complete" | "retry" | "reraise";
export type RuleMode = "block" | "recovery";

/** One answer: what the scripted model replies to a request its rule matches. */
export interface Answer {
  /** The value as JSON text, exactly typed (`1.0` a float, `1` an int). */
  literal?: string;
  /** Python evaluated in the paused frame, as a model's `expression` outcome is. */
  expression?: string;
  /** Python statements executed in the frame before the terminal call. */
  execute?: string;
  recover?: RecoverAction;
  /** The block fails with AIError(error); in recovery the exception goes on (reraise). */
  error?: string;
  /** Recovery: what the decision's notice on stderr says it did (default: the rule's name and file). */
  explanation?: string;
  /** Seconds to wait before answering. */
  delay: number;
}

export interface Rule {
  /** 1-based place in the file. */
  index: number;
  name: string | null;
  statement?: string;
  file?: string;
  line?: number;
  mode?: RuleMode;
  exception?: string;
  related?: Record<string, unknown>;
  /** One answer, or a sequence's answers in order. */
  answers: Answer[];
}

export interface Rules {
  /** The file as shown in messages. */
  shown: string;
  rules: Rule[];
}

const MATCH_KEYS = ["name", "statement", "at", "mode", "exception", "related"];
const ANSWER_KEYS = ["literal", "expression", "execute", "recover", "error", "explanation", "delay"];
const RECOVER_ACTIONS: readonly string[] = ["complete", "retry", "reraise"];

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** The rules of a parsed document, or a ConfigError naming the file, the rule and the fix. */
export function rulesOf(document: unknown, shown: string): Rules {
  if (!isTable(document)) throw new ConfigError(`${shown}: expected [[rule]] tables`);
  const extra = Object.keys(document).filter((key) => key !== "rule");
  if (extra.length > 0) throw new ConfigError(`${shown}: unknown key '${extra[0]}'; a rules file holds only [[rule]] tables`);
  const list = document.rule ?? [];
  if (!Array.isArray(list) || !list.every(isTable)) throw new ConfigError(`${shown}: 'rule' must be an array of tables; write each rule as [[rule]]`);
  return { shown, rules: list.map((table, i) => ruleOf(table, i + 1, shown)) };
}

function ruleOf(table: Table, index: number, shown: string): Rule {
  const name = typeof table.name === "string" ? table.name : null;
  const where = `${shown}: rule ${index}${name ? ` ("${name}")` : ""}`;
  const fail = (problem: string): never => {
    throw new ConfigError(`${where}: ${problem}`);
  };
  for (const key of Object.keys(table)) {
    if (!MATCH_KEYS.includes(key) && !ANSWER_KEYS.includes(key) && key !== "sequence")
      fail(`unknown key '${key}'; a rule matches with ${MATCH_KEYS.join(", ")} and answers with ${[...ANSWER_KEYS, "sequence"].join(", ")}`);
  }
  const text = (key: string): string | undefined => {
    const value = table[key];
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) fail(`'${key}' must be a non-empty string`);
    return value as string | undefined;
  };
  if (table.name !== undefined) text("name");
  const rule: Rule = { index, name, answers: [] };
  const statement = text("statement");
  if (statement !== undefined) rule.statement = statement;
  const at = text("at");
  if (at !== undefined) Object.assign(rule, placeOf(at, fail));
  const mode = text("mode");
  if (mode !== undefined && mode !== "block" && mode !== "recovery") fail(`mode '${mode}' is not "block" or "recovery"`);
  if (mode !== undefined) rule.mode = mode as RuleMode;
  const exception = text("exception");
  if (exception !== undefined) rule.exception = exception;
  if (table.related !== undefined) {
    if (!isTable(table.related)) fail(`'related' must be a table of names and values, e.g. related = { ticket = "refund" }`);
    rule.related = table.related as Table;
  }
  rule.answers = answersOf(table, fail);
  if (rule.mode === "block" && rule.answers.some((a) => a.recover !== undefined)) fail(`'recover' answers a recovery, not a block; remove it or set mode = "recovery"`);
  return rule;
}

function placeOf(at: string, fail: (problem: string) => never): { file: string; line?: number } {
  const found = /^(.*?)(?::(\d+))?$/.exec(at.trim());
  if (!found || found[1] === "") fail(`'at' must be FILE or FILE:LINE, e.g. at = "tickets.py:12"`);
  const [, file, line] = found as RegExpExecArray;
  return line === undefined ? { file } : { file, line: Number(line) };
}

function answersOf(table: Table, fail: (problem: string) => never): Answer[] {
  const own = ANSWER_KEYS.filter((key) => key !== "delay" && key !== "explanation" && table[key] !== undefined);
  if (table.sequence === undefined) {
    if (own.length === 0) fail(`no answer; give one of literal, expression, execute, recover, error or a sequence`);
    return [answerOf(table, fail, "")];
  }
  if (own.length > 0) fail(`'sequence' replaces the rule's own answer; move '${own[0]}' into the sequence's tables`);
  const sequence = table.sequence;
  if (!Array.isArray(sequence) || sequence.length === 0 || !sequence.every(isTable))
    fail(`'sequence' must be a non-empty array of answer tables, e.g. sequence = [{ literal = "bug" }, { literal = "billing" }]`);
  return (sequence as Table[]).map((item, i) => {
    const extra = Object.keys(item).filter((key) => !ANSWER_KEYS.includes(key));
    if (extra.length > 0) fail(`sequence[${i + 1}]: unknown key '${extra[0]}'; an answer has ${ANSWER_KEYS.join(", ")}`);
    if (!ANSWER_KEYS.some((key) => key !== "delay" && key !== "explanation" && item[key] !== undefined))
      fail(`sequence[${i + 1}]: no answer; give one of literal, expression, execute, recover or error`);
    return answerOf({ delay: table.delay, explanation: table.explanation, ...item }, fail, `sequence[${i + 1}]: `);
  });
}

function answerOf(table: Table, fail: (problem: string) => never, at: string): Answer {
  const code = (key: string): string | undefined => {
    const value = table[key];
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) fail(`${at}'${key}' must be Python code in a non-empty string`);
    return value as string | undefined;
  };
  const answer: Answer = { delay: 0 };
  if (table.literal !== undefined) answer.literal = exactJson(table.literal, (problem) => fail(`${at}literal: ${problem}`));
  const expression = code("expression");
  if (expression !== undefined) answer.expression = expression;
  if (table.explanation !== undefined) {
    if (typeof table.explanation !== "string" || table.explanation.trim() === "") fail(`${at}explanation must be a non-empty string`);
    answer.explanation = table.explanation as string;
  }
  const execute = code("execute");
  if (execute !== undefined) answer.execute = execute;
  if (answer.literal !== undefined && expression !== undefined) fail(`${at}give either literal or expression, not both`);
  if (table.recover !== undefined) {
    if (typeof table.recover !== "string" || !RECOVER_ACTIONS.includes(table.recover)) fail(`${at}recover must be "complete", "retry" or "reraise"`);
    answer.recover = table.recover as RecoverAction;
    if (answer.recover !== "complete" && (answer.literal !== undefined || expression !== undefined)) fail(`${at}only recover = "complete" takes a literal or expression`);
  }
  if (table.error !== undefined) {
    if (typeof table.error !== "string" || table.error.trim() === "") fail(`${at}error must be the reason, a non-empty string`);
    if (ANSWER_KEYS.some((key) => key !== "error" && key !== "delay" && key !== "explanation" && table[key] !== undefined)) fail(`${at}error stands alone: it is the whole answer`);
    answer.error = table.error as string;
  }
  if (table.delay !== undefined) {
    const delay = typeof table.delay === "bigint" ? Number(table.delay) : table.delay;
    if (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0) fail(`${at}delay must be seconds, a number of zero or more`);
    answer.delay = delay as number;
  }
  return answer;
}
