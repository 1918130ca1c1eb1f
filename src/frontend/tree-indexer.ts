// The cursor walk behind indexTree (program-index.ts): one TreeIndexer per part, moving a single
// tree cursor over statements, suites and clauses (never into expressions) and filling one
// IndexPart. Every method says where the cursor is when it is called, and leaves it there.

import { normaliseAnnotation } from "./annotations.js";
import type { IndexPart, Param, PartMap, Signature, StatementEntry, TopLevelRange } from "./index-types.js";
import type { TreeCursor } from "./syntax-tree.js";
import { CLAUSES, contentEnd, eachChild, fieldOf, isPlainString, SIMPLE, sliceOf, statementKind, statementTypeOf, typeOf } from "./tree-cursor.js";
import { readParameters } from "./tree-parameters.js";

interface Context {
  scope: string;
  topLevel: boolean;
  inTryOrWith: boolean;
  docstrings: boolean;
  className: string | null;
}

export const MODULE_SCOPE = "module";

export class TreeIndexer {
  private readonly part: IndexPart = { statements: [], annotations: new Map(), functions: new Map(), methods: new Map() };
  private readonly cursor: TreeCursor;

  /** `cursor` is on the root of the tree `text` was parsed from (one cursor may serve several parts). */
  constructor(
    cursor: TreeCursor,
    private readonly text: string,
    private readonly map: PartMap,
  ) {
    this.cursor = cursor;
  }

  /** The whole module. */
  module(first: boolean): IndexPart {
    this.suite(moduleContext(first));
    return this.part;
  }

  /**
   * The top-level statements inside `range`, or null where tree-sitter did not see clean Python.
   * The cursor is back on the root when this returns.
   */
  range(first: boolean, range: TopLevelRange): IndexPart | null {
    const { cursor } = this;
    // The binding returns the child's index, or null when no child reaches the offset (its typings say boolean).
    const child = cursor.gotoFirstChildForIndex(range.start) as unknown as number | null;
    if (child === null) return this.part;
    const clean = this.topLevel(first, range, child);
    cursor.gotoParent();
    return clean ? this.part : null;
  }

  /** Cursor on top-level node `i`, the first reaching `range.start`: indexes the range's statements; false where not clean. */
  private topLevel(first: boolean, range: TopLevelRange, i: number): boolean {
    const { cursor } = this;
    const ctx = moduleContext(first);
    let isFirst = first;
    do {
      const end = cursor.endIndex;
      if (end <= range.start) continue;
      const start = cursor.startIndex;
      if (start >= range.end) break;
      const type = statementTypeOf(cursor);
      if (type === null) continue;
      if (start < range.start || end > range.end) return false;
      if (!range.clean && (type === "ERROR" || (range.topNodes?.[i] ?? cursor.currentNode).hasError)) return false;
      this.statement(ctx, isFirst, type, start, end);
      isFirst = false;
      // biome-ignore lint/complexity/noCommaOperator: a `continue` above must still count the sibling it skips
    } while ((i++, cursor.gotoNextSibling()));
    return true;
  }

  private slice(): string {
    return sliceOf(this.cursor, this.text);
  }

  private annotate(scope: string, name: string, offset: number, annotation: string): void {
    let list = this.part.annotations.get(scope);
    if (!list) this.part.annotations.set(scope, (list = []));
    list.push({ offset, name, annotation });
  }

  /** Cursor on a container (module, block): visits its statements. */
  private suite(ctx: Context): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    let first = ctx.docstrings;
    do {
      const type = statementTypeOf(cursor);
      if (type === null) continue;
      this.statement(ctx, first, type);
      first = false;
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  /** Cursor on a statement whose node type is `nodeType` (and offsets `start`, `end`, when the caller has read them). */
  private statement(ctx: Context, first: boolean, nodeType: string, start = this.cursor.startIndex, end = this.cursor.endIndex): void {
    const { cursor } = this;
    const type = statementKind(nodeType, this.text, start);
    if (type === "case_clause") return this.clauses(ctx);
    const entry: StatementEntry = {
      start: this.map(start, "start"),
      end: this.map(end, "end"),
      type,
      compound: !SIMPLE.has(type),
      topLevel: ctx.topLevel,
      inTryOrWith: ctx.inTryOrWith,
      docstring: false,
      future: type === "future_import_statement",
      target: null,
      annotation: null,
      ownAnnotation: null,
      scope: ctx.scope,
    };
    // tree-sitter counts a block's trailing comments as part of it; CPython's span ends at the
    // last token of code (the bridge's selection reads CPython's). Only a top-level compound
    // statement can be a checkpoint, so only its end is worth the walk down.
    if (entry.compound && ctx.topLevel) entry.end = this.map(contentEnd(this.cursor), "end");
    this.part.statements.push(entry);
    if (type === "expression_statement") this.expressionStatement(entry, ctx, first);
    else if (type === "function_definition" || type === "class_definition") this.definition(ctx);
    else if (type === "decorated_definition")
      eachChild(this.cursor, () => {
        const t = typeOf(cursor);
        if (t === "function_definition" || t === "class_definition") this.definition(ctx);
      });
    else if (entry.compound) {
      // Only a `try` or `with` body is the user's to handle; its except, else and finally
      // clauses are not protected by it (SPEC §4.2, the bridge's recovery/selection.py).
      const inner = { ...ctx, topLevel: false, docstrings: false };
      const protectsBody = type === "try_statement" || type === "with_statement";
      this.clauses(inner, protectsBody ? { ...inner, inTryOrWith: true } : inner);
    }
  }

  /**
   * Cursor on a compound statement or clause: walks its own block with `body` (a `try` or
   * `with` body is protected) and the blocks of its clauses with `ctx`. Its block is its last
   * `block` child and only clauses and comments follow it, so the header before it (keyword,
   * condition, `:`) is skipped: the walk finds the block from the end. Any other shape is walked
   * child by child.
   */
  private clauses(ctx: Context, body: Context = ctx): void {
    const { cursor } = this;
    if (!cursor.gotoLastChild()) return;
    let after = 0;
    for (let t = typeOf(cursor); t !== "block"; t = typeOf(cursor)) {
      if ((t !== "comment" && !CLAUSES.has(t)) || !cursor.gotoPreviousSibling()) {
        cursor.gotoParent();
        return this.eachClause(ctx, body);
      }
      after++;
    }
    this.suite({ ...body, topLevel: false, docstrings: false });
    for (; after > 0; after--) {
      cursor.gotoNextSibling();
      if (CLAUSES.has(typeOf(cursor))) this.clauses(ctx);
    }
    cursor.gotoParent();
  }

  /** `clauses` child by child. */
  private eachClause(ctx: Context, body: Context): void {
    eachChild(this.cursor, () => {
      const t = typeOf(this.cursor);
      if (t === "block") this.suite({ ...body, topLevel: false, docstrings: false });
      else if (CLAUSES.has(t)) this.clauses(ctx);
    });
  }

  private expressionStatement(entry: StatementEntry, ctx: Context, first: boolean): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    const t = typeOf(cursor);
    if ((t === "string" || t === "concatenated_string") && first && ctx.docstrings && !cursor.gotoNextSibling()) {
      entry.docstring = isPlainString(cursor, this.text, t);
    } else if (t === "assignment" || t === "augmented_assignment") {
      this.assignment(entry, ctx, t);
    }
    cursor.gotoParent();
  }

  /**
   * Cursor on an assignment node. Its first child is always the `left` field (the grammar's
   * order); when that is not a single name the statement has no target and no annotation to
   * record, and the rest of its children are not read.
   */
  private assignment(entry: StatementEntry, ctx: Context, kind: string): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    if (fieldOf(cursor) !== "left" || typeOf(cursor) !== "identifier") return void cursor.gotoParent();
    // CPython folds identifiers to NFKC: `ｗｉｄｔｈ = 1` binds `width`.
    const leftName = this.slice().normalize("NFKC");
    if (!leftName) return void cursor.gotoParent(); // a missing name (tree-sitter's recovery)
    let annotation: string | null = null;
    let chained = false;
    while (cursor.gotoNextSibling()) {
      const f = fieldOf(cursor);
      if (f === "type") annotation = normaliseAnnotation(this.slice());
      else if (f === "right" && typeOf(cursor) === "assignment") chained = true;
    }
    cursor.gotoParent();
    if (annotation && kind === "assignment") this.annotate(ctx.scope, leftName, entry.start, annotation);
    if (!chained) {
      entry.target = leftName;
      entry.ownAnnotation = annotation;
    }
  }

  /**
   * Cursor on a function or class definition: its signature or name, then its body. One pass
   * over its children: the body block (the `body` field, always a block) comes after the name,
   * parameters and return type.
   */
  private definition(ctx: Context): void {
    const isFunction = typeOf(this.cursor) === "function_definition";
    const defStart = this.map(this.cursor.startIndex, "start");
    const key = `${isFunction ? "function_definition" : "class_definition"}@${defStart}`;
    let name = "";
    let returns: string | null = null;
    const params: Param[] = [];
    let declared = false;
    const declare = (): void => {
      declared = true;
      if (!isFunction) return;
      if (name) this.signature(ctx.className, { name, params, returns, className: ctx.className });
      for (const p of params) if (p.annotation) this.annotate(key, p.name, defStart, p.annotation);
    };
    const body: Context = isFunction
      ? { scope: key, topLevel: false, inTryOrWith: false, docstrings: true, className: null }
      : { scope: key, topLevel: false, inTryOrWith: ctx.inTryOrWith, docstrings: true, className: null };
    eachChild(this.cursor, () => {
      const f = fieldOf(this.cursor);
      if (f === "name") name = this.slice();
      else if (f === "return_type") returns = normaliseAnnotation(this.slice());
      else if (f === "parameters") readParameters(this.cursor, this.text, params);
      else if (f === "body") {
        if (!declared) declare();
        this.suite(isFunction ? body : { ...body, className: name || null });
      }
    });
    if (!declared) declare();
  }

  private signature(className: string | null, sig: Signature): void {
    if (!className) return push(this.part.functions, sig.name, sig);
    let methods = this.part.methods.get(className);
    if (!methods) this.part.methods.set(className, (methods = new Map()));
    push(methods, sig.name, sig);
  }
}

function moduleContext(first: boolean): Context {
  return { scope: MODULE_SCOPE, topLevel: true, inTryOrWith: false, docstrings: first, className: null };
}

/** Appends to the list under `key`. */
export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
