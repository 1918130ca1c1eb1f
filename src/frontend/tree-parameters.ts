// A function definition's parameters read from tree-sitter's cursor, for the index walk
// (tree-indexer.ts): each name with its kind (positional-only, keyword-only, *args, **kwargs)
// and its annotation as written. Each function leaves the cursor where it found it.

import { normaliseAnnotation } from "./annotations.js";
import type { Param, ParamKind } from "./index-types.js";
import type { TreeCursor } from "./syntax-tree.js";
import { eachChild, fieldOf, sliceOf, statementTypeOf, typeOf } from "./tree-cursor.js";

const TYPED_PARAMETERS = new Set(["typed_parameter", "default_parameter", "typed_default_parameter"]);
const SPLATS = new Set(["list_splat_pattern", "dictionary_splat_pattern"]);

/** Cursor on a `parameters` node: appends each parameter with its kind and annotation to `out`. */
export function readParameters(cursor: TreeCursor, text: string, out: Param[]): void {
  let kind: ParamKind = "positional";
  eachChild(cursor, () => {
    const type = statementTypeOf(cursor); // named children only (a comment is never a parameter)
    if (type === null) return;
    if (type === "positional_separator") {
      for (const q of out) if (q.kind === "positional") q.kind = "positional-only";
    } else if (type === "keyword_separator") {
      kind = "keyword-only";
    } else if (type === "identifier") {
      out.push({ name: sliceOf(cursor, text), kind, annotation: null });
    } else if (SPLATS.has(type)) {
      out.push({ name: innerName(cursor, text), kind: splatKind(type), annotation: null });
      if (type === "list_splat_pattern") kind = "keyword-only";
    } else if (TYPED_PARAMETERS.has(type)) {
      const p = typedParameter(cursor, text, kind);
      if (p.kind === "var-positional") kind = "keyword-only";
      out.push(p);
    }
  });
}

/** Cursor on a typed or defaulted parameter. */
function typedParameter(cursor: TreeCursor, text: string, kind: ParamKind): Param {
  const p: Param = { name: "", kind, annotation: null };
  eachChild(cursor, () => {
    const f = fieldOf(cursor);
    if (f === "type") return void (p.annotation = normaliseAnnotation(sliceOf(cursor, text)));
    if (f === "name") return void (p.name = sliceOf(cursor, text));
    const t = typeOf(cursor);
    if (t === "identifier" && p.name === "") p.name = sliceOf(cursor, text);
    else if (SPLATS.has(t)) {
      p.name = innerName(cursor, text);
      p.kind = splatKind(t);
    }
  });
  return p;
}

/** Cursor on `*name` / `**name`: the name. */
function innerName(cursor: TreeCursor, text: string): string {
  let name = "";
  eachChild(cursor, () => {
    if (typeOf(cursor) === "identifier") name = sliceOf(cursor, text);
  });
  return name;
}

function splatKind(type: string): ParamKind {
  return type === "list_splat_pattern" ? "var-positional" : "var-keyword";
}
