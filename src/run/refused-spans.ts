// The one `aiython:` line after CPython's SyntaxError when the entry program is refused (SPEC §4.3;
// README, "A typo stays a SyntaxError"). The bridge prints the SyntaxError itself, exactly as
// python3 does; this line only says why no AI block ran and what to do:
//   - no model configured: how many spans are not Python, and how to run them as AI blocks;
//   - a model configured: the span reads as mistyped Python, not natural language.

import type { Plan } from "../frontend/index.js";

const MAX_LINES = 5;

/** No model: `main.py: 2 spans are not Python (lines 3 and 7); fix them, or configure …`; null without blocks. */
export function notPythonLine(shownAs: string, plan: Plan): string | null {
  const count = plan.blocks.length;
  if (count === 0) return null;
  const lines = listed(plan.blocks.map((block) => block.span.line));
  if (count === 1) return `${shownAs}: 1 span is not Python (line ${lines}); fix it, or configure a model (aiython setup) to run it as an AI block`;
  return `${shownAs}: ${count} spans are not Python (lines ${lines}); fix them, or configure a model (aiython setup) to run them as AI blocks`;
}

/** A model configured: the first span that reads as mistyped Python is why the program did not start. */
export function typoLine(shownAs: string, plan: Plan): string | null {
  const typos = plan.blocks.filter((block) => plan.typos.includes(block.index));
  if (typos.length === 0) return null;
  const line = Math.min(...typos.map((block) => block.span.line));
  return `${shownAs}:${line} reads as mistyped Python, not natural language, so it is not an AI block (no two words in a row)`;
}

/** `3`, `3 and 7`, `3, 7 and 12`, at most five, then `…`. */
function listed(lines: number[]): string {
  const shown = lines.slice(0, MAX_LINES).map(String);
  if (lines.length > MAX_LINES) return `${shown.join(", ")}, …`;
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}
