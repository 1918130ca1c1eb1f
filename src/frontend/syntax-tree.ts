// tree-sitter, and nothing else in aiython touches it: parses Python into a syntax tree. The node
// binding feeds tree-sitter UTF-16, so every index and column it reports is in UTF-16 code units,
// the same unit as JS string offsets (positions.ts converts to code points).
//
// analyze.ts parses the source once, in chunks of whole windows, and windows alone where that
// tree has errors or the rewritten text differs, for structure that must be right: checkpointed
// statements, assignment targets, annotations, function signatures, the enclosing function of a
// call. It is never the judge of validity (SPEC §3.1): it accepts Python 2 syntax and recovers
// from errors in ways CPython does not.

import Parser from "tree-sitter";
import Python from "tree-sitter-python";

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

export function parsePython(text: string): SyntaxTree {
  return python().parse(text);
}
