// One walk over the statements of a (valid) program's syntax tree, with a tree cursor so that a
// 1 MB file costs tens of milliseconds: what typing a block needs (SPEC §3.2, block-info.ts) —
// the annotations of each scope in source order ("an earlier annotation of the same name in the
// same scope") and the signatures of the functions and classes defined in the file (for call
// arguments). Expressions are not descended into; only statements, suites and clauses.
// Checkpoints are not the frontend's: the bridge selects them (SPEC §4.2).
//
// A program is indexed in parts (one syntax tree per window of top-level statements, see
// analyze.ts) and the parts are merged; every offset is mapped to the original source, so scope
// keys and annotation order agree across parts. Functions and classes never span parts (a part
// holds whole top-level statements); the module scope does, which is why annotations are looked
// up after the merge.

import type { IndexPart, PartMap, ProgramIndex, Signature, TopLevelRange } from "./index-types.js";
import type { SyntaxNode, SyntaxTree, TreeCursor } from "./syntax-tree.js";
import { MODULE_SCOPE, push, TreeIndexer } from "./tree-indexer.js";

export { MODULE_SCOPE };

export type { IndexPart, Param, ParamKind, PartMap, ProgramIndex, Signature, TopLevelRange } from "./index-types.js";

export function scopeKey(node: SyntaxNode, map: PartMap): string {
  return `${node.type}@${map(node.startIndex, "start")}`;
}

/**
 * Indexes one part: `text` is the text `tree` was parsed from, `map` takes its offsets to the
 * original source. With `range`, only the top-level statements starting inside it are indexed, and the part is
 * null unless they are clean: no ERROR node, no error inside, none reaching past the range (a
 * tree of a whole broken file is trusted only where tree-sitter saw valid Python).
 */
export function indexTree(tree: SyntaxTree, text: string, map: PartMap, range?: TopLevelRange): IndexPart | null {
  const indexer = new TreeIndexer(tree.walk(), text, map);
  return range ? indexer.range(range) : indexer.module();
}

/**
 * indexTree with a range, from a cursor on the tree's root (left there): the windows of one
 * parse chunk share one cursor instead of one each.
 */
export function indexRange(cursor: TreeCursor, text: string, map: PartMap, range: TopLevelRange): IndexPart | null {
  return new TreeIndexer(cursor, text, map).range(range);
}

/** The program's index from its parts, given in source order. */
export function mergeParts(parts: IndexPart[]): ProgramIndex {
  const annotations = new Map<string, { offset: number; name: string; annotation: string }[]>();
  const functions = new Map<string, Signature[]>();
  const methods = new Map<string, Map<string, Signature[]>>();
  for (const part of parts) {
    for (const [scope, list] of part.annotations) {
      const all = annotations.get(scope);
      if (all) all.push(...list);
      else annotations.set(scope, [...list]);
    }
    for (const [name, sigs] of part.functions) for (const sig of sigs) push(functions, name, sig);
    for (const [cls, byName] of part.methods) {
      let m = methods.get(cls);
      if (!m) methods.set(cls, (m = new Map()));
      for (const [name, sigs] of byName) for (const sig of sigs) push(m, name, sig);
    }
  }
  const annotationBefore = (scope: string, name: string, offset: number): string | null => {
    const list = annotations.get(scope);
    if (!list) return null;
    let found: string | null = null;
    for (const a of list) {
      if (a.offset >= offset) break;
      if (a.name === name) found = a.annotation;
    }
    return found;
  };
  return { annotationBefore, functions, methods };
}
