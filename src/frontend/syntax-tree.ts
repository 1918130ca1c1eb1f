// tree-sitter, and nothing else in aiython touches it: parses Python into a syntax tree. The node
// binding feeds tree-sitter UTF-16, so every index and column it reports is in UTF-16 code units,
// the same unit as JS string offsets (positions.ts converts to code points).
//
// typing.ts parses the rewritten program's groups of windows that hold calls, and the others only
// where a block's typing asks about them, for structure that must be right: assignment targets,
// annotations, function signatures, the enclosing function of a call. It is never the judge of validity (SPEC §3.1): it accepts Python 2 syntax and recovers
// from errors in ways CPython does not.

import { createRequire } from "node:module";
import type Parser from "tree-sitter";

// Both packages are CommonJS, loaded with require: imported as ES modules, Node would first run
// its CommonJS export lexer over them (and set up the lexer itself), which doubled the cost of
// the first plan's tree-sitter load (SPEC §12).
const require = createRequire(import.meta.url);

export type SyntaxNode = Parser.SyntaxNode;
export type SyntaxTree = Parser.Tree;
export type TreeCursor = Parser.TreeCursor;

let parser: Parser | null = null;

function python(): Parser {
  if (!parser) {
    const TreeSitter = require("tree-sitter") as typeof Parser;
    parser = new TreeSitter();
    parser.setLanguage(require("tree-sitter-python") as Parser.Language);
  }
  return parser;
}

export function parsePython(text: string): SyntaxTree {
  return python().parse(text);
}

/** Sources from this length get their dropped trees freed as they go (see treeReleaser). */
export const RELEASE_TREES_FROM = 1_000_000;
let collectYoung: (() => void) | null = null;

/**
 * Frees the native memory of trees no longer referenced, for a large source. A tree holds tens of
 * bytes of native memory per byte of source, which V8 does not count: it collects a dropped tree
 * only when its own heap asks, and a large source held most of its trees to the end of its
 * typing (SPEC §12). A young-generation collection frees the wrappers of the trees just dropped, and
 * with them their trees. V8's collector is reached by setting --expose-gc at run time, which makes
 * V8 refuse the cached code of what loads afterwards: worth it for a source of megabytes only.
 */
export function treeReleaser(sourceLength: number): () => void {
  if (sourceLength < RELEASE_TREES_FROM) return () => {};
  if (collectYoung === null) {
    require("node:v8").setFlagsFromString("--expose-gc");
    const gc = require("node:vm").runInNewContext("gc") as (options: { type: "minor" }) => void;
    collectYoung = () => gc({ type: "minor" });
  }
  return collectYoung;
}
