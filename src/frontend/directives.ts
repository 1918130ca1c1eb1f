// Directives (SPEC §3.3): comment lines `# aiython: key="value" ...` with keys profile, prompt,
// capability and provider (values are JSON double-quoted strings).
//   - A point directive annotates the next statement at its indentation (with its whole suite
//     when that statement is compound); several consecutive point directives all apply.
//   - `# aiython: begin key="value" ...` and `# aiython: end` delimit a region; begin and end sit
//     at the same indentation and nest properly.
//   - Inner settings override outer ones; prompts accumulate: outer region, inner region, then
//     point directives from the outermost statement in (the profile's prompt is added later by
//     the host).
//   - Only comments on their own line count: text inside strings or after code is ignored. The
//     scanner, run over the program CPython will compile, decides what is a comment.
// Every malformed directive is a diagnostic {line, column, message}; the CLI prints them as
// `file:line: message` and exits 78 before running anything.

import type { BlockDirective, Diagnostic } from "./plan.js";
import type { LineIndex } from "./positions.js";
import type { LogicalLine, Scan } from "./scanner.js";

export const DIRECTIVE_KEYS = ["profile", "prompt", "capability", "provider"] as const;
type Key = (typeof DIRECTIVE_KEYS)[number];
type Settings = Partial<Record<Key, string>>;

interface Applied {
  /** Physical lines covered, inclusive. */
  from: number;
  to: number;
  /** Regions sort before points; then outer (earlier `from`) before inner. */
  rank: number;
  order: number;
  settings: Settings;
}

export interface DirectiveIndex {
  applied: Applied[];
}

const MARK = /^([ \t\f]*)#[ \t]*aiython:(.*)$/;
const PAIR = /\s*([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*/y;

/** `capabilities`: the names a `capability` directive may give (SPEC §10; the caller owns the list). */
export function readDirectives(sc: Scan, index: LineIndex, diagnostics: Diagnostic[], capabilities: readonly string[]): DirectiveIndex {
  const applied: Applied[] = [];
  const open: { line: number; column: number; indent: string; settings: Settings }[] = [];
  let order = 0;
  for (const comment of sc.comments) {
    const text = sc.text.slice(comment.start, comment.end);
    if (!/^#[ \t]*aiython:/.test(text)) continue;
    const point = index.point(comment.start);
    const line = point.line;
    const at = (message: string): void => {
      diagnostics.push({ line, column: point.column, message });
    };
    if (!comment.ownLine) continue; // after code on the same line: an ordinary comment
    if (comment.depth > 0) {
      at("a directive inside brackets applies to nothing; put it on its own line before the statement");
      continue;
    }
    const m = MARK.exec(index.lineText(line));
    if (!m) continue;
    const indent = m[1];
    const parsed = parseDirective(m[2], capabilities);
    if ("error" in parsed) {
      at(parsed.error);
      continue;
    }
    if (parsed.kind === "begin") {
      open.push({ line, column: point.column, indent, settings: parsed.settings });
    } else if (parsed.kind === "end") {
      const begin = open.pop();
      if (!begin) at("'# aiython: end' without a matching '# aiython: begin'");
      else if (begin.indent !== indent) at(`'# aiython: end' must be at the indentation of its '# aiython: begin' (line ${begin.line})`);
      else applied.push({ from: begin.line, to: line, rank: 0, order: order++, settings: begin.settings });
    } else {
      const target = statementAfter(sc, comment.end);
      if (!target || target.indent !== indentWidth(indent)) {
        at("this directive applies to nothing: no statement follows it at its indentation");
        continue;
      }
      const [first, last] = extent(sc, target.index);
      applied.push({ from: index.lineOf(first.start), to: index.lineOf(last.end), rank: 1, order: order++, settings: parsed.settings });
    }
  }
  for (const begin of open) {
    diagnostics.push({ line: begin.line, column: begin.column, message: "'# aiython: begin' is never closed by a '# aiython: end' at its indentation" });
  }
  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  return { applied };
}

/** The settings that apply to a block starting on `line`. */
export function directiveFor(directives: DirectiveIndex, line: number): BlockDirective {
  const result: BlockDirective = { profile: null, prompts: [], capability: null, provider: null };
  const hits = directives.applied.filter((d) => d.from <= line && line <= d.to).sort((a, b) => a.rank - b.rank || a.from - b.from || a.order - b.order);
  for (const d of hits) {
    if (d.settings.profile !== undefined) result.profile = d.settings.profile;
    if (d.settings.capability !== undefined) result.capability = d.settings.capability;
    if (d.settings.provider !== undefined) result.provider = d.settings.provider;
    if (d.settings.prompt !== undefined) result.prompts.push(d.settings.prompt);
  }
  return result;
}

type Parsed = { kind: "point" | "begin" | "end"; settings: Settings } | { error: string };

export function parseDirective(body: string, capabilities: readonly string[]): Parsed {
  let rest = body.trim();
  let kind: "point" | "begin" | "end" = "point";
  const word = /^(begin|end)(?![A-Za-z0-9_=-])/.exec(rest);
  if (word) {
    kind = word[1] as "begin" | "end";
    rest = rest.slice(word[0].length);
  }
  if (kind === "end") {
    return rest.trim() === "" ? { kind, settings: {} } : { error: "'# aiython: end' takes no settings" };
  }
  if (kind === "point" && rest.trim() === "") {
    return { error: `empty directive; write settings such as # aiython: prompt="..." (keys: ${DIRECTIVE_KEYS.join(", ")})` };
  }
  const settings: Settings = {};
  let i = 0;
  while (i < rest.length) {
    if (/^\s*$/.test(rest.slice(i))) break;
    PAIR.lastIndex = i;
    const pair = PAIR.exec(rest);
    if (!pair) return { error: `malformed directive near '${rest.slice(i).trim().slice(0, 30)}'; expected key="value"` };
    const key = pair[1];
    if (!(DIRECTIVE_KEYS as readonly string[]).includes(key)) {
      return { error: `unknown directive key '${key}'; expected one of ${DIRECTIVE_KEYS.join(", ")}` };
    }
    i = PAIR.lastIndex;
    const value = /^"(?:[^"\\]|\\.)*"/.exec(rest.slice(i));
    if (!value) return { error: `the value of '${key}' must be a JSON double-quoted string, e.g. ${key}="..."` };
    let decoded: string;
    try {
      decoded = JSON.parse(value[0]) as string;
    } catch {
      return { error: `the value of '${key}' is not a valid JSON string: ${value[0]}` };
    }
    i += value[0].length;
    if (i < rest.length && !/\s/.test(rest[i])) return { error: `expected a space after the value of '${key}'` };
    if (settings[key as Key] !== undefined) return { error: `duplicate directive key '${key}'` };
    if (decoded.trim() === "") return { error: `the value of '${key}' is empty` };
    if (key === "capability" && !capabilities.includes(decoded)) {
      return { error: `unknown capability '${decoded}'; expected one of ${capabilities.join(", ")}` };
    }
    settings[key as Key] = decoded;
  }
  return { kind, settings };
}

function indentWidth(indent: string): number {
  let col = 0;
  for (const c of indent) {
    if (c === " ") col++;
    else if (c === "\t") col = (Math.floor(col / 8) + 1) * 8;
    else if (c === "\f") col = 0;
  }
  return col;
}

function statementAfter(sc: Scan, offset: number): (LogicalLine & { index: number }) | null {
  const lines = sc.lines;
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid].start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < lines.length ? { ...lines[lo], index: lo } : null;
}

/** The logical lines of the statement starting at line `li`: its suite and continuation clauses. */
function extent(sc: Scan, li: number): [LogicalLine, LogicalLine] {
  const lines = sc.lines;
  const indent = lines[li].indent;
  let last = li;
  for (;;) {
    while (last + 1 < lines.length && lines[last + 1].indent > indent) last++;
    const next = lines[last + 1];
    if (next && next.indent === indent && ["elif", "else", "except", "finally"].includes(next.head)) last++;
    else break;
  }
  return [lines[li], lines[last]];
}
