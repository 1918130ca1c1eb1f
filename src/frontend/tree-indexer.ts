// The cursor walk behind indexTree (program-index.ts): one TreeIndexer per part, moving a single
// tree cursor over statements, suites and clauses (never into expressions) and filling one
// IndexPart. Every method says where the cursor is when it is called, and leaves it there.

import { normaliseAnnotation } from "./annotations.js";
import type { IndexPart, Param, PartMap, Signature } from "./index-types.js";
import type { TreeCursor } from "./syntax-tree.js";
import { CLAUSES, eachChild, fieldOf, SIMPLE, sliceOf, statementKind, statementTypeOf, typeOf } from "./tree-cursor.js";
import { readParameters } from "./tree-parameters.js";

interface Context {
  /** Key of the enclosing function, class or module scope. */
  scope: string;
  /** The class whose body this is, or null. */
  className: string | null;
}

export const MODULE_SCOPE = "module";
const MODULE_CONTEXT: Context = { scope: MODULE_SCOPE, className: null };

export class TreeIndexer {
  private readonly part: IndexPart = { annotations: new Map(), functions: new Map(), methods: new Map() };
  private readonly cursor: TreeCursor;

  /** `cursor` is on the root of the tree `text` was parsed from. */
  constructor(
    cursor: TreeCursor,
    private readonly text: string,
    private readonly map: PartMap,
  ) {
    this.cursor = cursor;
  }

  /** The whole module. */
  module(): IndexPart {
    this.suite(MODULE_CONTEXT);
    return this.part;
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
    do {
      const type = statementTypeOf(cursor);
      if (type !== null) this.statement(ctx, type);
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }

  /** Cursor on a statement whose node type is `nodeType` (and offset `start`, when the caller has read it). */
  private statement(ctx: Context, nodeType: string, start = this.cursor.startIndex): void {
    const { cursor } = this;
    const type = statementKind(nodeType, this.text, start);
    if (type === "case_clause") return this.clauses(ctx);
    if (type === "expression_statement") this.expressionStatement(ctx, start);
    else if (type === "function_definition" || type === "class_definition") this.definition(ctx);
    else if (type === "decorated_definition")
      eachChild(this.cursor, () => {
        const t = typeOf(cursor);
        if (t === "function_definition" || t === "class_definition") this.definition(ctx);
      });
    else if (!SIMPLE.has(type)) this.clauses(ctx);
  }

  /**
   * Cursor on a compound statement or clause: walks its own block and the blocks of its
   * clauses. Its block is its last `block` child and only clauses and comments follow it, so the
   * header before it (keyword, condition, `:`) is skipped: the walk finds the block from the end.
   * Any other shape is walked child by child.
   */
  private clauses(ctx: Context): void {
    const { cursor } = this;
    if (!cursor.gotoLastChild()) return;
    let after = 0;
    for (let t = typeOf(cursor); t !== "block"; t = typeOf(cursor)) {
      if ((t !== "comment" && !CLAUSES.has(t)) || !cursor.gotoPreviousSibling()) {
        cursor.gotoParent();
        return this.eachClause(ctx);
      }
      after++;
    }
    this.suite(ctx);
    for (; after > 0; after--) {
      cursor.gotoNextSibling();
      if (CLAUSES.has(typeOf(cursor))) this.clauses(ctx);
    }
    cursor.gotoParent();
  }

  /** `clauses` child by child. */
  private eachClause(ctx: Context): void {
    eachChild(this.cursor, () => {
      const t = typeOf(this.cursor);
      if (t === "block") this.suite(ctx);
      else if (CLAUSES.has(t)) this.clauses(ctx);
    });
  }

  /** Cursor on an expression statement at `start`: an annotated assignment of one name records its annotation. */
  private expressionStatement(ctx: Context, start: number): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    if (typeOf(cursor) === "assignment") this.assignment(ctx, start);
    cursor.gotoParent();
  }

  /**
   * Cursor on an assignment node. Its first child is always the `left` field (the grammar's
   * order); when that is not a single name there is no annotation to record, and the rest of its
   * children are not read.
   */
  private assignment(ctx: Context, start: number): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    if (fieldOf(cursor) !== "left" || typeOf(cursor) !== "identifier") return void cursor.gotoParent();
    // CPython folds identifiers to NFKC: `ｗｉｄｔｈ = 1` binds `width`.
    const leftName = this.slice().normalize("NFKC");
    let annotation: string | null = null;
    while (leftName && annotation === null && cursor.gotoNextSibling()) {
      if (fieldOf(cursor) === "type") annotation = normaliseAnnotation(this.slice());
    }
    cursor.gotoParent();
    if (annotation) this.annotate(ctx.scope, leftName, this.map(start, "start"), annotation);
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
    const body: Context = { scope: key, className: null };
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

/** Appends to the list under `key`. */
export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
