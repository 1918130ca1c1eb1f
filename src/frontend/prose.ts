// Whether a span CPython refused reads as natural language (an AI block) or as mistyped Python
// (CPython's SyntaxError stands). README, "A typo stays a SyntaxError", states the rule:
//
//   a span reads as natural language when, on one logical line, a word follows a word or a
//   number ("classify this ticket", "pick 3 tickets"), or when it holds a character outside
//   ASCII that Python cannot read ("总结一下，用一句话", "the customer’s reply").
//
// A word is a name that is not one of Python's keywords (the soft keywords `match`, `case`, `type`
// and `_` count as words). Two such tokens side by side are never valid Python, and a human
// sentence almost always has them; a typo of Python almost never does: `prnt("b"`, `if x = 2:`,
// `print "hi"`, a missing colon, an unindented body, `else if x:`. The rule leans towards natural
// language where it cannot tell (`retrun x`, `import numpy np` read as prose): a span wrongly taken
// for a typo could never reach the model, while one wrongly taken for prose is what happened
// before this rule. Comments are not tokens, so they never count.

import { scan } from "./scanner.js";
import type { Token } from "./scan-types.js";

const KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

/** True when `text` (a block's source) reads as natural language by the rule above. */
export function readsAsProse(text: string): boolean {
  const { tokens, lines } = scan(text);
  for (const token of tokens) {
    if (token.kind === "error" && /[^\x00-\x7f]/.test(text.slice(token.start, token.end))) return true;
  }
  for (const line of lines) {
    for (let i = line.first; i >= 0 && i < line.last; i++) {
      const [left, right] = [tokens[i], tokens[i + 1]];
      if ((isWord(left) || left.kind === "number") && isWord(right)) return true;
    }
  }
  return false;
}

function isWord(token: Token): boolean {
  return token.kind === "name" && !KEYWORDS.has(token.value);
}
