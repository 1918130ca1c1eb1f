// What typing a block needs of the program (SPEC §3.2, block-info.ts), read from tree-sitter's
// trees of its statements (expressions are not descended into; only statements, suites and
// clauses): the annotations of each scope in source order ("an earlier annotation of the same
// name in the same scope") and the signatures of the functions and classes defined in the file
// (for call arguments). Checkpoints are not the frontend's: the bridge selects them (SPEC §4.2).
//
// A program is indexed in parts, one per group of whole top-level statements (analyze.ts), every
// offset mapped to the original source, so scope keys and annotation order agree across parts.
// Functions and classes never span parts (a part holds whole top-level statements); the module
// scope does. Every question is about one name, and a part that defines, annotates or declares a
// name holds its text: so a part is parsed and indexed only when a question names something its
// text holds (ProgramParts), and a large program with a few blocks is never parsed whole.

import type { IndexPart, PartMap, ProgramIndex, Signature } from "./index-types.js";
import type { SyntaxNode, SyntaxTree } from "./syntax-tree.js";
import { MODULE_SCOPE, TreeIndexer } from "./tree-indexer.js";

export { MODULE_SCOPE };

export type { IndexPart, Param, ParamKind, PartMap, ProgramIndex, Signature } from "./index-types.js";

export function scopeKey(node: SyntaxNode, map: PartMap): string {
  return `${node.type}@${map(node.startIndex, "start")}`;
}

/** Indexes one part: `text` is the text `tree` was parsed from, `map` takes its offsets to the original source. */
export function indexTree(tree: SyntaxTree, text: string, map: PartMap): IndexPart {
  return new TreeIndexer(tree.walk(), text, map).module();
}

/** A part of the program: its span in the original source and how to index it when asked. */
export interface PartSource {
  /** Original offsets (the part's text, outside blocks, is the source's between them). */
  start: number;
  end: number;
  index: () => IndexPart;
}

// What a part's original text holds where it defines, or annotates at module level, a name: the
// name after `def` or `class` (a backslash may join the lines between), or the name before a colon
// (blanks, continuations and, inside brackets, comments between). Each matches more than it
// needs to (a dict's key, a slice), never less. An annotated name is folded to NFKC as CPython
// folds it, so a part with any character outside ASCII may annotate any name.
const DEFINED = (keyword: string, name: string): RegExp => new RegExp(`${keyword}(?:\\s|\\\\)+${escaped(name)}`, "gu");
const ANNOTATED = (name: string): RegExp => new RegExp(`${escaped(name)}(?:\\s|\\\\|#[^\\n\\r]*)*:`, "gu");

const NOT_ASCII = /[^\0-\x7f]/gu;

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The program's index over its parts (given in source order, covering the source), each indexed
 * on the first question its original text may answer. Answers as one index of every part merged
 * in order would: a function's or a class's scope lies in one part; the module's annotations of a
 * name, a function's signatures and a class's methods only in parts whose text defines the name.
 */
export class ProgramParts implements ProgramIndex {
  private readonly indexed = new Map<number, IndexPart>();
  private readonly matching = new Map<string, number[]>();

  constructor(
    private readonly source: string,
    private readonly parts: readonly PartSource[],
  ) {}

  annotationBefore(scope: string, name: string, offset: number): string | null {
    const parts = scope === MODULE_SCOPE ? this.moduleAnnotating(name) : [this.partAt(Number(scope.slice(scope.lastIndexOf("@") + 1)))];
    let found: string | null = null;
    for (const n of parts) {
      if (this.parts[n].start >= offset) break;
      for (const a of this.part(n).annotations.get(scope) ?? []) {
        if (a.offset >= offset) return found; // a scope's annotations are in source order, and so are the parts
        if (a.name === name) found = a.annotation;
      }
    }
    return found;
  }

  functionsNamed(name: string): Signature[] {
    return this.partsMatching(DEFINED("def", name)).flatMap((n) => this.part(n).functions.get(name) ?? []);
  }

  methodsOf(className: string, name: string): Signature[] | undefined {
    const found = this.partsMatching(DEFINED("class", className)).flatMap((n) => this.part(n).methods.get(className)?.get(name) ?? []);
    return found.length > 0 ? found : undefined;
  }

  methodsNamed(name: string): Signature[] {
    return this.partsMatching(DEFINED("def", name)).flatMap((n) => [...this.part(n).methods.values()].flatMap((byName) => byName.get(name) ?? []));
  }

  /** The numbers of the parts that may annotate `name` at module level, in source order. */
  private moduleAnnotating(name: string): number[] {
    const some = this.partsMatching(NOT_ASCII);
    const numbers = some.length === 0 ? this.partsMatching(ANNOTATED(name)) : [...new Set([...this.partsMatching(ANNOTATED(name)), ...some])];
    return numbers.sort((a, b) => a - b);
  }

  /** The numbers of the parts whose original text `pattern` (global) matches, in source order. */
  private partsMatching(pattern: RegExp): number[] {
    let numbers = this.matching.get(pattern.source);
    if (!numbers) {
      numbers = [];
      for (let m = pattern.exec(this.source); m; m = pattern.exec(this.source)) {
        const n = this.partAt(m.index);
        if (numbers[numbers.length - 1] !== n) numbers.push(n);
        pattern.lastIndex = Math.max(pattern.lastIndex, this.parts[n].end); // the next match that matters is in a later part
      }
      this.matching.set(pattern.source, numbers);
    }
    return numbers;
  }

  private partAt(offset: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.parts[mid].start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private part(n: number): IndexPart {
    let part = this.indexed.get(n);
    if (!part) this.indexed.set(n, (part = this.parts[n].index()));
    return part;
  }
}
