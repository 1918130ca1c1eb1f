// Reading tree-sitter's cursor cheaply, for the index walk (tree-indexer.ts): node types and field
// names by numeric id, the statement kinds the walk tells apart (and a misread `type` alias), a
// node's children, its text, where its code ends and whether a string is a plain docstring. Each
// function leaves the cursor where it found it.

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

/**
 * Cursor on a node: where the last token of code below it ends (trailing comments do not
 * count): down the last child that is not a comment, level by level, then back up.
 */
export function contentEnd(cursor: TreeCursor): number {
  let depth = 0;
  let end = -1;
  while (end < 0) {
    if (!cursor.gotoLastChild()) {
      end = cursor.endIndex;
      break;
    }
    depth++;
    let type = typeOf(cursor);
    while (type === "comment" && cursor.gotoPreviousSibling()) type = typeOf(cursor);
    if (type === "comment") {
      // Only comments below this node: it ends where it ends.
      cursor.gotoParent();
      depth--;
      end = cursor.endIndex;
    } else if (SIMPLE.has(type)) {
      // Comments trail only blocks (they come before the dedent that closes one), never a
      // simple statement: it ends at its last token.
      end = cursor.endIndex;
    }
  }
  while (depth-- > 0) cursor.gotoParent();
  return end;
}

/**
 * Cursor on a `string` or `concatenated_string` (its type): a docstring is a plain string
 * literal, or several, with no f-string or bytes among them (as CPython).
 */
export function isPlainString(cursor: TreeCursor, text: string, type: string): boolean {
  if (type === "string") return plainPiece(cursor, text);
  let plain = true;
  eachChild(cursor, () => {
    if (plain && typeOf(cursor) === "string") plain = plainPiece(cursor, text);
  });
  return plain;
}

/** Cursor on a `string`: its opening token (prefix and quotes) has no f or b prefix. */
function plainPiece(cursor: TreeCursor, text: string): boolean {
  if (!cursor.gotoFirstChild()) return true;
  const prefix = sliceOf(cursor, text).replace(/["']+$/, "");
  cursor.gotoParent();
  return !/[fFbB]/.test(prefix);
}
