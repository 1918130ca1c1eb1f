// The cursor walk behind indexTree (program-index.ts): one TreeIndexer per part, moving a single
// tree cursor over statements, suites and clauses (never into expressions) and filling one
// IndexPart. Every method says where the cursor is when it is called, and leaves it there.

import { normaliseAnnotation } from "./annotations.js";
import type { IndexPart, Param, ParamKind, PartMap, Signature, StatementEntry, TopLevelRange } from "./program-index.js";
import type { SyntaxTree, TreeCursor } from "./syntax-tree.js";

interface Context {
  scope: string;
  topLevel: boolean;
  inTryOrWith: boolean;
  docstrings: boolean;
  className: string | null;
}

// Node type and field names by numeric id: reading the id is a number across the native
// boundary, the name a new string every time.
const typeNames: string[] = [];
const fieldNames: string[] = [];
/** Whether a node type is named (a property of the type: a keyword or punctuation is not). */
const namedTypes: boolean[] = [];

function typeOf(cursor: TreeCursor): string {
  const id = cursor.nodeTypeId;
  return (typeNames[id] ??= cursor.nodeType);
}

/** The type of the cursor's node if it is a statement to index (named, not a comment), else null. */
function statementTypeOf(cursor: TreeCursor): string | null {
  const id = cursor.nodeTypeId;
  if (!(namedTypes[id] ??= cursor.nodeIsNamed)) return null;
  const type = (typeNames[id] ??= cursor.nodeType);
  return type === "comment" ? null : type;
}

function fieldOf(cursor: TreeCursor): string | undefined {
  const id = cursor.currentFieldId;
  if (!id) return undefined;
  return (fieldNames[id] ??= cursor.currentFieldName);
}

const SIMPLE = new Set([
  "expression_statement", "return_statement", "delete_statement", "assert_statement", "import_statement",
  "import_from_statement", "future_import_statement", "pass_statement", "break_statement", "continue_statement",
  "raise_statement", "global_statement", "nonlocal_statement", "type_alias_statement", "print_statement", "exec_statement",
]);
const CLAUSES = new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);

export const MODULE_SCOPE = "module";

const TYPED_PARAMETERS = new Set(["typed_parameter", "default_parameter", "typed_default_parameter"]);
const SPLATS = new Set(["list_splat_pattern", "dictionary_splat_pattern"]);

export class TreeIndexer {
  private readonly part: IndexPart = { statements: [], annotations: new Map(), functions: new Map(), methods: new Map() };
  private readonly cursor: TreeCursor;

  constructor(tree: SyntaxTree, private readonly text: string, private readonly map: PartMap) {
    this.cursor = tree.walk();
  }

  /** The whole module. */
  module(first: boolean): IndexPart {
    this.suite(moduleContext(first));
    return this.part;
  }

  /** The top-level statements inside `range`, or null where tree-sitter did not see clean Python. */
  range(first: boolean, range: TopLevelRange): IndexPart | null {
    const { cursor } = this;
    // The binding returns the child's index, or null when no child reaches the offset (its typings say boolean).
    const child = cursor.gotoFirstChildForIndex(range.start) as unknown as number | null;
    if (child === null) return this.part;
    const ctx = moduleContext(first);
    let isFirst = first;
    do {
      const end = cursor.endIndex;
      if (end <= range.start) continue;
      const start = cursor.startIndex;
      if (start >= range.end) break;
      const type = statementTypeOf(cursor);
      if (type === null) continue;
      if (start < range.start || end > range.end) return null;
      if (!range.clean && (type === "ERROR" || cursor.currentNode.hasError)) return null;
      this.statement(ctx, isFirst, type, start, end);
      isFirst = false;
    } while (cursor.gotoNextSibling());
    return this.part;
  }

  private slice(): string {
    return this.text.slice(this.cursor.startIndex, this.cursor.endIndex);
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
    const type = this.statementType(nodeType, start);
    if (type === "case_clause") return this.clauses(ctx);
    const entry: StatementEntry = {
      start: this.map(start, "start"), end: this.map(end, "end"), type, compound: !SIMPLE.has(type),
      topLevel: ctx.topLevel, inTryOrWith: ctx.inTryOrWith, docstring: false, future: type === "future_import_statement",
      target: null, annotation: null, ownAnnotation: null, scope: ctx.scope,
    };
    // tree-sitter counts a block's trailing comments as part of it; CPython's span ends at the
    // last token of code (the bridge's selection reads CPython's). Only a top-level compound
    // statement can be a checkpoint, so only its end is worth the walk down.
    if (entry.compound && ctx.topLevel) entry.end = this.map(this.contentEnd(), "end");
    this.part.statements.push(entry);
    if (type === "expression_statement") this.expressionStatement(entry, ctx, first);
    else if (type === "function_definition" || type === "class_definition") this.definition(ctx);
    else if (type === "decorated_definition") this.eachChild(() => {
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
   * The statement's node type, except that tree-sitter reads `type(x).attr = value` (an
   * assignment whose target starts with a call of `type`) as a `type X = …` alias statement: a
   * real one has a space, then a name, after the soft keyword.
   */
  private statementType(type: string, start: number): string {
    if (type !== "type_alias_statement") return type;
    return /^type[ \t]+[^\W\d]/u.test(this.text.slice(start, start + 6)) ? type : "expression_statement";
  }

  /** Cursor on a compound statement or clause: walks its own block with `body` (a `try` or
   * `with` body is protected) and the blocks of its clauses with `ctx`. */
  private clauses(ctx: Context, body: Context = ctx): void {
    this.eachChild(() => {
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
      entry.docstring = this.isPlainString(t);
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
   * over its children: the body block comes after the name, parameters and return type.
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
    this.eachChild(() => {
      const f = fieldOf(this.cursor);
      if (f === "name") name = this.slice();
      else if (f === "return_type") returns = normaliseAnnotation(this.slice());
      else if (f === "parameters") this.parameters(params);
      else if (typeOf(this.cursor) === "block") {
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

  /** Cursor on a `parameters` node: appends each parameter with its kind and annotation. */
  private parameters(out: Param[]): void {
    let kind: ParamKind = "positional";
    this.eachChild(() => {
      const type = statementTypeOf(this.cursor); // named children only (a comment is never a parameter)
      if (type === null) return;
      if (type === "positional_separator") {
        for (const q of out) if (q.kind === "positional") q.kind = "positional-only";
      } else if (type === "keyword_separator") {
        kind = "keyword-only";
      } else if (type === "identifier") {
        out.push({ name: this.slice(), kind, annotation: null });
      } else if (SPLATS.has(type)) {
        out.push({ name: this.innerName(), kind: splatKind(type), annotation: null });
        if (type === "list_splat_pattern") kind = "keyword-only";
      } else if (TYPED_PARAMETERS.has(type)) {
        const p = this.typedParameter(kind);
        if (p.kind === "var-positional") kind = "keyword-only";
        out.push(p);
      }
    });
  }

  /** Cursor on a typed or defaulted parameter. */
  private typedParameter(kind: ParamKind): Param {
    const p: Param = { name: "", kind, annotation: null };
    this.eachChild(() => {
      const f = fieldOf(this.cursor);
      if (f === "type") return void (p.annotation = normaliseAnnotation(this.slice()));
      if (f === "name") return void (p.name = this.slice());
      const t = typeOf(this.cursor);
      if (t === "identifier" && p.name === "") p.name = this.slice();
      else if (SPLATS.has(t)) {
        p.name = this.innerName();
        p.kind = splatKind(t);
      }
    });
    return p;
  }

  /** Cursor on `*name` / `**name`: the name. */
  private innerName(): string {
    let name = "";
    this.eachChild(() => {
      if (typeOf(this.cursor) === "identifier") name = this.slice();
    });
    return name;
  }

  /**
   * Cursor on a node: where the last token of code below it ends (trailing comments do not
   * count): down the last child that is not a comment, level by level, then back up.
   */
  private contentEnd(): number {
    const { cursor } = this;
    let depth = 0;
    let end = -1;
    while (end < 0) {
      if (!cursor.gotoLastChild()) {
        end = cursor.endIndex;
        break;
      }
      depth++;
      let type = typeOf(cursor);
      while (type === "comment" && cursor.gotoPreviousSibling()) type = typeOf(cursor);
      if (type === "comment") {
        // Only comments below this node: it ends where it ends.
        cursor.gotoParent();
        depth--;
        end = cursor.endIndex;
      } else if (SIMPLE.has(type)) {
        // Comments trail only blocks (they come before the dedent that closes one), never a
        // simple statement: it ends at its last token.
        end = cursor.endIndex;
      }
    }
    while (depth-- > 0) cursor.gotoParent();
    return end;
  }

  /**
   * Cursor on a `string` or `concatenated_string` (its type): a docstring is a plain string
   * literal, or several, with no f-string or bytes among them (as CPython).
   */
  private isPlainString(type: string): boolean {
    if (type === "string") return this.plainPiece();
    let plain = true;
    this.eachChild(() => {
      if (plain && typeOf(this.cursor) === "string") plain = this.plainPiece();
    });
    return plain;
  }

  /** Cursor on a `string`: its opening token (prefix and quotes) has no f or b prefix. */
  private plainPiece(): boolean {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return true;
    const prefix = this.slice().replace(/["']+$/, "");
    cursor.gotoParent();
    return !/[fFbB]/.test(prefix);
  }

  /** Calls `visit` with the cursor on each child of the current node, then returns to it. */
  private eachChild(visit: () => void): void {
    const { cursor } = this;
    if (!cursor.gotoFirstChild()) return;
    do visit();
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
}

function moduleContext(first: boolean): Context {
  return { scope: MODULE_SCOPE, topLevel: true, inTryOrWith: false, docstrings: first, className: null };
}

function splatKind(type: string): ParamKind {
  return type === "list_splat_pattern" ? "var-positional" : "var-keyword";
}

/** Appends to the list under `key`. */
export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
