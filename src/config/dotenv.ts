// A deliberately tiny dotenv reader for `env_file` and `.aiython/credentials.env` (SPEC §7). It
// accepts only this subset, so a hand-written parser is enough:
//   KEY=VALUE            KEY is [A-Za-z_][A-Za-z0-9_]*; spaces around KEY, `=` and VALUE are trimmed
//   export KEY=VALUE     the `export ` prefix is ignored
//   # comment            whole-line comments and blank lines are skipped
//   KEY=value # note     in an unquoted value, ` #` starts a comment
//   KEY="a\nb"           double quotes: \n \r \t \" \\ escapes; single quotes: literal text
// No interpolation (`$OTHER` stays as written) and no multi-line values. A line outside the subset
// is a ConfigError naming file and line number, never the line's text (it may hold a key).

import { ConfigError } from "../errors.js";

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

export function parseDotenv(text: string, displayName: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fail = (why: string): never => {
      throw new ConfigError(`${displayName}:${index + 1}: ${why}; write KEY=VALUE, one per line`);
    };
    const match = LINE.exec(line);
    if (!match) fail("not a KEY=VALUE line");
    const [, key, rest] = match as RegExpExecArray;
    values.set(key, parseValue(rest, fail));
  }
  return values;
}

function parseValue(rest: string, fail: (why: string) => never): string {
  const quote = rest[0];
  if (quote !== '"' && quote !== "'") {
    const comment = rest.search(/\s#/);
    return (comment === -1 ? rest : rest.slice(0, comment)).trim();
  }
  let value = "";
  for (let i = 1; i < rest.length; i++) {
    const ch = rest[i];
    if (ch === quote) {
      const after = rest.slice(i + 1).trim();
      if (after !== "" && !after.startsWith("#")) fail("unexpected text after the closing quote");
      return value;
    }
    if (quote === '"' && ch === "\\" && i + 1 < rest.length) {
      const next = rest[++i];
      value += ESCAPES[next] ?? `\\${next}`;
    } else {
      value += ch;
    }
  }
  return fail("unclosed quote (values cannot span lines)");
}
