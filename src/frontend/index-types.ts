// The shapes of a program's index (program-index.ts builds it, tree-indexer.ts and
// tree-parameters.ts fill it in): what typing a block needs, the scopes' annotations and the
// signatures of the file's functions and classes.

import type { SyntaxNode } from "./syntax-tree.js";

export type ParamKind = "positional-only" | "positional" | "var-positional" | "keyword-only" | "var-keyword";

export interface Param {
  name: string;
  kind: ParamKind;
  annotation: string | null;
}

export interface Signature {
  name: string;
  params: Param[];
  returns: string | null;
  /** Defined directly in a class body. */
  className: string | null;
}

export interface ProgramIndex {
  /** Latest annotation of `name` in `scope` that starts before `offset`. */
  annotationBefore(scope: string, name: string, offset: number): string | null;
  functions: Map<string, Signature[]>;
  /** Class name → method name → signatures. */
  methods: Map<string, Map<string, Signature[]>>;
}

/** Maps an offset of a part's text to the original source. */
export type PartMap = (offset: number, bias: "start" | "end") => number;

export interface IndexPart {
  annotations: Map<string, { offset: number; name: string; annotation: string }[]>;
  functions: Map<string, Signature[]>;
  methods: Map<string, Map<string, Signature[]>>;
}

/** A run of the module's top-level statements to index, by offsets into the tree's text. */
export interface TopLevelRange {
  start: number;
  end: number;
  /** The tree has no error anywhere: skip the per-statement checks. */
  clean?: boolean;
  /** The root's children (read at once), whose errors are then not asked node by node from the cursor. */
  topNodes?: readonly SyntaxNode[];
}
