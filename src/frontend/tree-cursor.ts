// Reading tree-sitter's cursor cheaply, for the index walk (tree-indexer.ts): node types and field
// names by numeric id, the statement kinds the walk tells apart (and a misread `type` alias), a
// node's children and its text. Each function leaves the cursor where it found it.

import type { TreeCursor } from "./syntax-tree.js";

// Node type and field names by numeric id: reading the id is a number across the native
// boundary, the name a new string every time.
const typeNames: string[] = [];
const fieldNames: string[] = [];
/** Whether a node type is named (a property of the type: a keyword or punctuation is not). */
const namedTypes: boolean[] = [];

export function typeOf(cursor: TreeCursor): string {
  const id = cursor.nodeTypeId;
  return (typeNames[id] ??= cursor.nodeType);
}

/** The type of the cursor's node if it is a statement to index (named, not a comment), else null. */
export function statementTypeOf(cursor: TreeCursor): string | null {
  const id = cursor.nodeTypeId;
  if (!(namedTypes[id] ??= cursor.nodeIsNamed)) return null;
  const type = (typeNames[id] ??= cursor.nodeType);
  return type === "comment" ? null : type;
}

export function fieldOf(cursor: TreeCursor): string | undefined {
  const id = cursor.currentFieldId;
  if (!id) return undefined;
  return (fieldNames[id] ??= cursor.currentFieldName);
}

export const SIMPLE = new Set([
  "expression_statement",
  "return_statement",
  "delete_statement",
  "assert_statement",
  "import_statement",
  "import_from_statement",
  "future_import_statement",
  "pass_statement",
  "break_statement",
  "continue_statement",
  "raise_statement",
  "global_statement",
  "nonlocal_statement",
  "type_alias_statement",
  "print_statement",
  "exec_statement",
]);
export const CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);

/**
 * A statement's node type, except that tree-sitter reads `type(x).attr = value` (an assignment
 * whose target starts with a call of `type`) as a `type X = …` alias statement: a real one has a
 * space, then a name, after the soft keyword. `start` is the statement's offset in `text`.
 */
export function statementKind(type: string, text: string, start: number): string {
  if (type !== "type_alias_statement") return type;
  return /^type[ \t]+[^\W\d]/u.test(text.slice(start, start + 6)) ? type : "expression_statement";
}

/** The source text of the cursor's node. */
export function sliceOf(cursor: TreeCursor, text: string): string {
  return text.slice(cursor.startIndex, cursor.endIndex);
}

/** Calls `visit` with the cursor on each child of the current node, then returns to it. */
export function eachChild(cursor: TreeCursor, visit: () => void): void {
  if (!cursor.gotoFirstChild()) return;
  do visit();
  while (cursor.gotoNextSibling());
  cursor.gotoParent();
}
