// Recovery checkpoints as data (SPEC §4.2): which statements the bridge instruments.
//   - entry module: every top-level statement (compound ones too: retry is not allowed for them);
//   - any module: every simple statement (assignment, augmented or annotated assignment,
//     expression statement, `del`, `return`, `assert`, `import`) nested in a function, method,
//     class, loop, `if` or `match` body, at any depth.
// Never: statements inside the body of a user `try` or `with` (user handlers see the exception
// first; the `except`, `else` and `finally` clauses are not protected by it, and a function body
// defined there starts afresh, since it runs when called), docstrings,
// `from __future__` imports (they must stay first in the file), statement blocks (generated
// runtime calls). The bridge selects by the same rule from CPython's AST for sources that
// compile (bridge-py/aiython_bridge/recovery/selection.py; test/checkpoint-agreement.test.ts
// proves the two equal on the standard library). Top-level statements of an imported project
// module are not checkpointed: they run once, at import time, inside the importer's `import`
// statement, which is its own checkpoint.

import type { CheckpointInfo } from "./plan.js";
import type { LineIndex } from "./positions.js";
import type { ProgramIndex } from "./program-index.js";

const NESTED_SIMPLE = new Set(["expression_statement", "return_statement", "delete_statement", "assert_statement", "import_statement", "import_from_statement"]);

export interface CheckpointOptions {
  displayName: string;
  entryModule: boolean;
  /** The source the plan describes; the index's offsets are into it. */
  original: LineIndex;
  /** The statement blocks (original spans): generated calls, never checkpoints. */
  statementBlocks: { start: number; end: number }[];
}

export function selectCheckpoints(program: ProgramIndex, options: CheckpointOptions): CheckpointInfo[] {
  const base = options.displayName.split(/[\\/]/).pop() ?? options.displayName;
  const generated = new Set(options.statementBlocks.map((c) => `${c.start}:${c.end}`));
  const out: CheckpointInfo[] = [];
  for (const s of program.statements) {
    if (s.docstring || s.future || s.inTryOrWith) continue;
    if (s.type === "expression_statement" && generated.has(`${s.start}:${s.end}`)) continue;
    const chosen = s.topLevel ? options.entryModule : !s.compound && NESTED_SIMPLE.has(s.type);
    if (!chosen) continue;
    const { start, end } = s;
    out.push({
      id: `${base}:c${out.length + 1}`,
      span: options.original.span(start, end),
      statement: options.original.text.slice(start, end),
      target: s.target,
      annotation: s.annotation,
      retry_allowed: !s.compound,
      compound: s.compound,
    });
  }
  return out;
}
