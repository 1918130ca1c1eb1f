// The shapes of a program's index (program-index.ts builds it, tree-indexer.ts and
// tree-parameters.ts fill it in): what typing a block needs, the scopes' annotations and the
// signatures of the file's functions and classes.

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
  /** The signatures of the functions named `name` (not methods). */
  functionsNamed(name: string): Signature[];
  /** The signatures of class `className`'s methods named `name`; undefined when it has none. */
  methodsOf(className: string, name: string): Signature[] | undefined;
  /** The signatures of every class's methods named `name`. */
  methodsNamed(name: string): Signature[];
}

/** Maps an offset of a part's text to the original source. */
export type PartMap = (offset: number, bias: "start" | "end") => number;

export interface IndexPart {
  annotations: Map<string, { offset: number; name: string; annotation: string }[]>;
  functions: Map<string, Signature[]>;
  methods: Map<string, Map<string, Signature[]>>;
}
