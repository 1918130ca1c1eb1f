// One walk over the statements of a (valid) program's syntax tree, with a tree cursor so that a
// 1 MB file costs tens of milliseconds: every statement with what checkpoints need (kind, target,
// annotation, whether it sits in a user `try`/`with`), the annotations of each scope in source
// order (SPEC §3.2: "an earlier annotation of the same name in the same scope"), and the
// signatures of the functions and classes defined in the file (for call arguments).
// Expressions are not descended into; only statements, suites and clauses.
//
// A program is indexed in parts (one syntax tree per window of top-level statements, see
// analyze.ts) and the parts are merged; every offset is mapped to the original source, so scope
// keys and annotation order agree across parts. Functions and classes never span parts (a part
// holds whole top-level statements); the module scope does, which is why a statement's annotation
// is resolved after the merge.

import { normaliseAnnotation } from "./annotations.js";
import type { SyntaxNode, SyntaxTree, TreeCursor } from "./syntax-tree.js";

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

export interface StatementEntry {
  /** Offsets into the indexed text. */
  start: number;
  end: number;
  type: string;
  compound: boolean;
  /** Directly in the module body. */
  topLevel: boolean;
  /** Somewhere in a user `try` or `with` statement (reset by a function body). */
  inTryOrWith: boolean;
  docstring: boolean;
  /** `from __future__ import ...` */
  future: boolean;
  /** Single-name assignment target. */
  target: string | null;
  /** The target's annotation: on the statement itself, or an earlier one of the same name in its scope. */
  annotation: string | null;
  /** The annotation written on the statement itself. */
  ownAnnotation: string | null;
  /** Key of the enclosing function, class or module scope. */
  scope: string;
}

export interface ProgramIndex {
  statements: StatementEntry[];
  /** Latest annotation of `name` in `scope` that starts before `offset`. */
  annotationBefore(scope: string, name: string, offset: number): string | null;
  functions: Map<string, Signature[]>;
  /** Class name → method name → signatures. */
  methods: Map<string, Map<string, Signature[]>>;
}

const SIMPLE = new Set([
  "expression_statement", "return_statement", "delete_statement", "assert_statement", "import_statement",
  "import_from_statement", "future_import_statement", "pass_statement", "break_statement", "continue_statement",
  "raise_statement", "global_statement", "nonlocal_statement", "type_alias_statement", "print_statement", "exec_statement",
]);
const CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);

export const MODULE_SCOPE = "module";

/** Maps an offset of a part's text to the original source. */
export type PartMap = (offset: number, bias: "start" | "end") => number;

// Node type and field names by numeric id: reading the id is a number across the native
// boundary, the name a new string every time.
const typeNames: string[] = [];
const fieldNames: string[] = [];

function typeOf(cursor: TreeCursor): string {
  const id = cursor.nodeTypeId;
  return (typeNames[id] ??= cursor.nodeType);
}

function fieldOf(cursor: TreeCursor): string | undefined {
  const id = cursor.currentFieldId;
  if (!id) return undefined;
  return (fieldNames[id] ??= cursor.currentFieldName);
}

export function scopeKey(node: SyntaxNode, map: PartMap): string {
  return `${node.type}@${map(node.startIndex, "start")}`;
}

export interface IndexPart {
  statements: StatementEntry[];
  annotations: Map<string, { offset: number; name: string; annotation: string }[]>;
  functions: Map<string, Signature[]>;
  methods: Map<string, Map<string, Signature[]>>;
}

interface Context {
  scope: string;
  topLevel: boolean;
  inTryOrWith: boolean;
  docstrings: boolean;
  className: string | null;
}

/** A run of the module's top-level statements to index, by offsets into the tree's text. */
export interface TopLevelRange {
  start: number;
  end: number;
  /** The tree has no error anywhere: skip the per-statement checks. */
  clean?: boolean;
}

/**
 * Indexes one part: `text` is the text `tree` was parsed from, `map` takes its offsets to the
 * original source; `first` says whether the part starts the module (for the module docstring).
 * With `range`, only the top-level statements starting inside it are indexed, and the part is
 * null unless they are clean: no ERROR node, no error inside, none reaching past the range (a
 * tree of a whole broken file is trusted only where tree-sitter saw valid Python).
 */
export function indexTree(tree: SyntaxTree, text: string, map: PartMap, first: boolean, range?: TopLevelRange): IndexPart | null {
  const statements: StatementEntry[] = [];
  const annotations = new Map<string, { offset: number; name: string; annotation: string }[]>();
  const functions = new Map<string, Signature[]>();
  const methods = new Map<string, Map<string, Signature[]>>();
  const slice = (c: TreeCursor): string => text.slice(c.startIndex, c.endIndex);

  const annotate = (scope: string, name: string, offset: number, annotation: string): void => {
    let list = annotations.get(scope);
    if (!list) annotations.set(scope, (list = []));
    list.push({ offset, name, annotation });
  };

  const cursor = tree.walk();

  /** Cursor on a container (module, block); visits its statements and returns to it. */
  const suite = (ctx: Context): void => {
    if (!cursor.gotoFirstChild()) return;
    let first = ctx.docstrings;
    do {
      if (!cursor.nodeIsNamed || typeOf(cursor) === "comment") continue;
      statement(ctx, first);
      first = false;
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };

  /** Cursor on a statement. */
  const statement = (ctx: Context, first: boolean): void => {
    const type = typeOf(cursor);
    const start = map(cursor.startIndex, "start");
    const end = map(cursor.endIndex, "end");
    const entry: StatementEntry = {
      start, end, type, compound: !SIMPLE.has(type), topLevel: ctx.topLevel, inTryOrWith: ctx.inTryOrWith,
      docstring: false, future: type === "future_import_statement", target: null, annotation: null, ownAnnotation: null, scope: ctx.scope,
    };
    if (type === "case_clause") {
      clauses(ctx);
      return;
    }
    statements.push(entry);
    if (type === "expression_statement") expressionStatement(entry, ctx, first);
    else if (type === "function_definition" || type === "class_definition") definition(ctx);
    else if (type === "decorated_definition") {
      if (cursor.gotoFirstChild()) {
        do {
          if (typeOf(cursor) === "function_definition" || typeOf(cursor) === "class_definition") definition(ctx);
        } while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
    } else if (entry.compound) {
      const inner = type === "try_statement" || type === "with_statement" ? { ...ctx, inTryOrWith: true } : ctx;
      clauses({ ...inner, topLevel: false, docstrings: false });
    }
  };

  /** Cursor on a compound statement or clause: walks every block below it and below its clauses. */
  const clauses = (ctx: Context): void => {
    if (!cursor.gotoFirstChild()) return;
    do {
      const t = typeOf(cursor);
      if (t === "block") suite({ ...ctx, topLevel: false, docstrings: false });
      else if (CLAUSES.has(t)) clauses(ctx);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };

  const expressionStatement = (entry: StatementEntry, ctx: Context, first: boolean): void => {
    if (!cursor.gotoFirstChild()) return;
    const t = typeOf(cursor);
    if ((t === "string" || t === "concatenated_string") && first && ctx.docstrings && !cursor.gotoNextSibling()) {
      entry.docstring = true;
      cursor.gotoParent();
      return;
    }
    if (t === "assignment" || t === "augmented_assignment") assignment(entry, ctx, t);
    cursor.gotoParent();
  };

  /** Cursor on an assignment node. */
  const assignment = (entry: StatementEntry, ctx: Context, kind: string): void => {
    let leftName: string | null = null;
    let annotation: string | null = null;
    let chained = false;
    if (cursor.gotoFirstChild()) {
      do {
        const f = fieldOf(cursor);
        if (f === "left") leftName = typeOf(cursor) === "identifier" ? slice(cursor) : null;
        else if (f === "type") annotation = normaliseAnnotation(slice(cursor));
        else if (f === "right" && typeOf(cursor) === "assignment") chained = true;
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    if (leftName && annotation && kind === "assignment") annotate(ctx.scope, leftName, entry.start, annotation);
    if (leftName && !chained) {
      entry.target = leftName;
      entry.ownAnnotation = annotation;
    }
  };

  /** Cursor on a function or class definition: its signature or name, then its body. */
  const definition = (ctx: Context): void => {
    const isFunction = typeOf(cursor) === "function_definition";
    const defStart = map(cursor.startIndex, "start");
    const key = `${isFunction ? "function_definition" : "class_definition"}@${defStart}`;
    let name = "";
    let returns: string | null = null;
    const params: Param[] = [];
    if (cursor.gotoFirstChild()) {
      do {
        const f = fieldOf(cursor);
        if (f === "name") name = slice(cursor);
        else if (f === "return_type") returns = normaliseAnnotation(slice(cursor));
        else if (f === "parameters") parameters(params);
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    if (!isFunction) {
      descendBody({ scope: key, topLevel: false, inTryOrWith: ctx.inTryOrWith, docstrings: true, className: name || null });
      return;
    }
    const sig: Signature = { name, params, returns, className: ctx.className };
    if (name) {
      if (ctx.className) {
        let m = methods.get(ctx.className);
        if (!m) methods.set(ctx.className, (m = new Map()));
        push(m, name, sig);
      } else push(functions, name, sig);
    }
    for (const p of params) if (p.annotation) annotate(key, p.name, defStart, p.annotation);
    descendBody({ scope: key, topLevel: false, inTryOrWith: false, docstrings: true, className: null });
  };

  /** Cursor on a `parameters` node: appends each parameter with its kind and annotation. */
  const parameters = (out: Param[]): void => {
    if (!cursor.gotoFirstChild()) return;
    let kind: ParamKind = "positional";
    do {
      if (!cursor.nodeIsNamed) continue;
      const type = typeOf(cursor);
      if (type === "positional_separator") {
        for (const q of out) if (q.kind === "positional") q.kind = "positional-only";
      } else if (type === "keyword_separator") {
        kind = "keyword-only";
      } else if (type === "identifier") {
        out.push({ name: slice(cursor), kind, annotation: null });
      } else if (type === "list_splat_pattern" || type === "dictionary_splat_pattern") {
        out.push({ name: innerName(), kind: type === "list_splat_pattern" ? "var-positional" : "var-keyword", annotation: null });
        if (type === "list_splat_pattern") kind = "keyword-only";
      } else if (type === "typed_parameter" || type === "default_parameter" || type === "typed_default_parameter") {
        const p: Param = { name: "", kind, annotation: null };
        if (cursor.gotoFirstChild()) {
          do {
            const f = fieldOf(cursor);
            const t = typeOf(cursor);
            if (f === "type") p.annotation = normaliseAnnotation(slice(cursor));
            else if (f === "name" || (t === "identifier" && p.name === "")) p.name = slice(cursor);
            else if (t === "list_splat_pattern" || t === "dictionary_splat_pattern") {
              p.name = innerName();
              p.kind = t === "list_splat_pattern" ? "var-positional" : "var-keyword";
            }
          } while (cursor.gotoNextSibling());
          cursor.gotoParent();
        }
        if (p.kind === "var-positional") kind = "keyword-only";
        out.push(p);
      }
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };

  /** Cursor on `*name` / `**name`: the name. */
  const innerName = (): string => {
    let name = "";
    if (cursor.gotoFirstChild()) {
      do {
        if (typeOf(cursor) === "identifier") name = slice(cursor);
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    return name;
  };

  const descendBody = (ctx: Context): void => {
    if (!cursor.gotoFirstChild()) return;
    do {
      if (typeOf(cursor) === "block") suite(ctx);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };

  const moduleContext: Context = { scope: MODULE_SCOPE, topLevel: true, inTryOrWith: false, docstrings: first, className: null };
  if (!range) {
    suite(moduleContext);
    return { statements, annotations, functions, methods };
  }
  // The binding returns the child's index, or null when no child reaches the offset (its typings say boolean).
  const child = cursor.gotoFirstChildForIndex(range.start) as unknown as number | null;
  if (child === null) return { statements, annotations, functions, methods };
  let isFirst = first;
  do {
    if (cursor.endIndex <= range.start) continue;
    if (cursor.startIndex >= range.end) break;
    if (!cursor.nodeIsNamed || typeOf(cursor) === "comment") continue;
    if (cursor.startIndex < range.start || cursor.endIndex > range.end) return null;
    if (!range.clean) {
      const node = cursor.currentNode;
      if (node.type === "ERROR" || node.hasError) return null;
    }
    statement(moduleContext, isFirst);
    isFirst = false;
  } while (cursor.gotoNextSibling());
  return { statements, annotations, functions, methods };
}

/** The program's index from its parts, given in source order. */
export function mergeParts(parts: IndexPart[]): ProgramIndex {
  const statements: StatementEntry[] = [];
  const annotations = new Map<string, { offset: number; name: string; annotation: string }[]>();
  const functions = new Map<string, Signature[]>();
  const methods = new Map<string, Map<string, Signature[]>>();
  for (const part of parts) {
    for (const s of part.statements) statements.push(s);
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
  for (const s of statements) {
    if (s.target) s.annotation = s.ownAnnotation ?? annotationBefore(s.scope, s.target, s.start);
  }
  return { statements, annotationBefore, functions, methods };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
