// tree-sitter, and nothing else in aiython touches it. Parses Python into a syntax tree and
// re-parses incrementally after the blocks are rendered. The node binding feeds tree-sitter
// UTF-16, so every index and column it reports is in UTF-16 code units, the same unit as JS
// string offsets (positions.ts converts to code points).
//
// tree-sitter is used on the *rewritten* program (valid Python) for structure that must be right:
// assignment targets, annotations, function signatures, checkpointed statements, comments. It is
// never the judge of validity (SPEC §3.1): it accepts Python 2 syntax and recovers from errors in
// ways CPython does not.

import Parser from "tree-sitter";
import Python from "tree-sitter-python";
import type { LineIndex } from "./positions.js";
import type { Replacement } from "./render.js";

export type SyntaxNode = Parser.SyntaxNode;
export type SyntaxTree = Parser.Tree;
export type TreeCursor = Parser.TreeCursor;

let parser: Parser | null = null;

function python(): Parser {
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(Python as unknown as Parser.Language);
  }
  return parser;
}

export function parsePython(text: string, old?: SyntaxTree): SyntaxTree {
  return python().parse(text, old);
}

/**
 * Applies `replacements` (sorted, non-overlapping, offsets into `oldIndex.text`) to `tree`, which
 * was parsed from that text, and re-parses `newText`, reusing every unchanged subtree.
 */
export function reparse(tree: SyntaxTree, oldIndex: LineIndex, replacements: Replacement[], newText: string): SyntaxTree {
  const point = (offset: number): Parser.Point => {
    const line = oldIndex.lineOf(offset);
    return { row: line - 1, column: offset - oldIndex.lineStart(line) };
  };
  for (let i = replacements.length - 1; i >= 0; i--) {
    const r = replacements[i];
    const start = point(r.start);
    const lastBreak = Math.max(r.text.lastIndexOf("\n"), r.text.lastIndexOf("\r"));
    const rows = (r.text.match(/\r\n|\r|\n/g) ?? []).length;
    const newEnd = rows === 0 ? { row: start.row, column: start.column + r.text.length } : { row: start.row + rows, column: r.text.length - lastBreak - 1 };
    tree.edit({
      startIndex: r.start,
      oldEndIndex: r.end,
      newEndIndex: r.start + r.text.length,
      startPosition: start,
      oldEndPosition: point(r.end),
      newEndPosition: newEnd,
    });
  }
  return parsePython(newText, tree);
}

/** The node's field child, or null. */
export function field(node: SyntaxNode, name: string): SyntaxNode | null {
  return node.childForFieldName(name);
}
