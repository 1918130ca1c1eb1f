// Target and expected type of each expression block (SPEC §3.2), read from the rewritten
// program's syntax tree at the block's call:
//   - assignment right-hand side (plain, annotated, augmented; also `name := block`): the target's
//     source text; its type is the statement's own annotation, else the latest earlier annotation of
//     the same name in the same scope (parameters included);
//   - `return block`: the enclosing function's return annotation;
//   - call argument (positional or keyword) of a function, method or class defined in this file:
//     the matching parameter's annotation (`*args: T` / `**kw: T` for extra arguments). Several
//     definitions with the same name must agree, or the type is unknown.
// Anything else has no target and no type (null). That includes the operand of `await`
// (`x: T = await block`, `return await block`, SPEC §4.3): the program awaits the block's value, so
// `T` describes the awaited result, not the value (a coroutine would fail a contract of `T`).
// Annotations are never evaluated.

import { normaliseAnnotation } from "./annotations.js";
import { MODULE_SCOPE, scopeKey, type PartMap, type ProgramIndex, type Signature } from "./program-index.js";
import type { SyntaxNode, SyntaxTree } from "./syntax-tree.js";

export interface BlockTyping {
  target: string | null;
  outputType: string | null;
}

const SCOPES = new Set(["function_definition", "class_definition", "lambda"]);

/** A block's call inside the syntax tree of the rewritten text around it. */
export interface CallSite {
  kind: "expression" | "statement";
  /** The call's span in `text`. */
  start: number;
  end: number;
  tree: SyntaxTree;
  text: string;
  /** `text` offsets → original source offsets. */
  map: PartMap;
}

export function describeBlocks(calls: CallSite[], program: ProgramIndex): BlockTyping[] {
  return calls.map((call) => (call.kind === "expression" ? describe(call, program) : { target: null, outputType: null }));
}

function describe(call: CallSite, program: ProgramIndex): BlockTyping {
  const { tree, text, map } = call;
  const src = (n: SyntaxNode): string => text.slice(n.startIndex, n.endIndex);
  const scopeOf = (n: SyntaxNode): string => scopeAround(n, map);
  const statementStart = (n: SyntaxNode): number => map(statementNode(n).startIndex, "start");
  let node = tree.rootNode.descendantForIndex(call.start, Math.max(call.start, call.end - 1));
  while (node.parent && node.parent.startIndex === node.startIndex && node.parent.endIndex === node.endIndex && node.parent.type !== "expression_statement") {
    node = node.parent;
  }
  while (node.parent?.type === "parenthesized_expression") node = node.parent;
  const parent = node.parent;
  if (!parent) return { target: null, outputType: null };

  switch (parent.type) {
    case "assignment":
    case "augmented_assignment": {
      if (!sameNode(parent.childForFieldName("right"), node)) break;
      const left = parent.childForFieldName("left");
      if (!left || !["identifier", "attribute", "subscript"].includes(left.type)) return { target: null, outputType: null };
      const type = parent.childForFieldName("type");
      const target = src(left);
      if (type) return { target, outputType: normaliseAnnotation(src(type)) };
      const earlier = left.type === "identifier" ? program.annotationBefore(scopeOf(parent), target, statementStart(parent)) : null;
      return { target, outputType: earlier };
    }
    case "named_expression": {
      const name = parent.childForFieldName("name");
      if (!name || !sameNode(parent.childForFieldName("value"), node)) break;
      return { target: src(name), outputType: program.annotationBefore(scopeOf(parent), src(name), statementStart(parent)) };
    }
    case "return_statement": {
      const fn = enclosing(parent, "function_definition");
      const returns = fn?.childForFieldName("return_type");
      return { target: null, outputType: returns ? normaliseAnnotation(src(returns)) : null };
    }
    case "argument_list":
    case "keyword_argument":
      return { target: null, outputType: argumentType(node, parent, program, src) };
    default:
      break;
  }
  return { target: null, outputType: null };
}

function sameNode(a: SyntaxNode | null, b: SyntaxNode): boolean {
  return a !== null && a.startIndex === b.startIndex && a.endIndex === b.endIndex;
}

function enclosing(node: SyntaxNode, type: string): SyntaxNode | null {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === type) return n;
    if (SCOPES.has(n.type)) return null;
  }
  return null;
}

function scopeAround(node: SyntaxNode, map: PartMap): string {
  for (let n = node.parent; n; n = n.parent) {
    if (SCOPES.has(n.type)) {
      // A node inside a definition's header (decorators, defaults) belongs to the scope around it.
      const body = n.childForFieldName("body");
      if (n.type === "lambda" || (body && body.startIndex <= node.startIndex)) return scopeKey(n, map);
    }
  }
  return MODULE_SCOPE;
}

function statementNode(node: SyntaxNode): SyntaxNode {
  let n: SyntaxNode = node;
  while (n.parent && n.parent.type !== "block" && n.parent.type !== "module") n = n.parent;
  return n;
}

function argumentType(node: SyntaxNode, parent: SyntaxNode, program: ProgramIndex, src: (n: SyntaxNode) => string): string | null {
  let keyword: string | null = null;
  let args = parent;
  if (parent.type === "keyword_argument") {
    if (!sameNode(parent.childForFieldName("value"), node)) return null;
    const name = parent.childForFieldName("name");
    keyword = name ? src(name) : null;
    args = parent.parent as SyntaxNode;
    if (args?.type !== "argument_list") return null;
  }
  const call = args.parent;
  if (call?.type !== "call") return null;
  let position = -1;
  if (keyword === null) {
    position = 0;
    for (const a of args.namedChildren) {
      if (sameNode(a, node)) break;
      if (a.type === "list_splat" || a.type === "dictionary_splat") return null;
      if (a.type !== "keyword_argument" && a.type !== "comment") position++;
    }
  }
  const sigs = callee(call, program, src);
  if (sigs.length === 0) return null;
  const types = new Set(sigs.map((s) => paramType(s.sig, s.bound, position, keyword)));
  return types.size === 1 ? ([...types][0] ?? null) : null;
}

/** Signatures the call may reach; `bound` drops the first parameter (self/cls). */
function callee(call: SyntaxNode, program: ProgramIndex, src: (n: SyntaxNode) => string): { sig: Signature; bound: boolean }[] {
  const fn = call.childForFieldName("function");
  if (!fn) return [];
  if (fn.type === "identifier") {
    const name = src(fn);
    const plain = program.functionsNamed(name);
    const init = program.methodsOf(name, "__init__") ?? [];
    return [...plain.map((sig) => ({ sig, bound: false })), ...init.map((sig) => ({ sig, bound: true }))];
  }
  if (fn.type === "attribute") {
    const object = fn.childForFieldName("object");
    const attr = fn.childForFieldName("attribute");
    if (!object || !attr) return [];
    const name = src(attr);
    if (object.type === "identifier" && (src(object) === "self" || src(object) === "cls")) {
      const cls = enclosing(call, "class_definition") ?? enclosingClassOfMethod(call);
      const clsName = cls?.childForFieldName("name");
      const own = clsName ? program.methodsOf(src(clsName), name) : undefined;
      if (own) return own.map((sig) => ({ sig, bound: true }));
    }
    return program.methodsNamed(name).map((sig) => ({ sig, bound: true }));
  }
  return [];
}

function enclosingClassOfMethod(node: SyntaxNode): SyntaxNode | null {
  for (let n = node.parent; n; n = n.parent) if (n.type === "class_definition") return n;
  return null;
}

function paramType(sig: Signature, bound: boolean, position: number, keyword: string | null): string | null {
  const params = bound ? sig.params.slice(1) : sig.params;
  if (keyword !== null) {
    const p = params.find((q) => q.name === keyword && (q.kind === "positional" || q.kind === "keyword-only"));
    if (p) return p.annotation;
    return params.find((q) => q.kind === "var-keyword")?.annotation ?? null;
  }
  const positional = params.filter((q) => q.kind === "positional" || q.kind === "positional-only");
  if (position < positional.length) return positional[position].annotation;
  return params.find((q) => q.kind === "var-positional")?.annotation ?? null;
}
