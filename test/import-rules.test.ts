// Import rules of src/ (docs/architecture.md, "Code map"): dependencies point one way, and each
// outside system has one owner. Every import of every file — static, re-export and dynamic
// `import("…")` — is read with the TypeScript parser and checked against the rules below; a
// broken rule fails with the file, the import and the rule it breaks.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { ROOT } from "./support/run-cli.js";

const SRC = path.join(ROOT, "src");

interface Import {
  from: string; // file, relative to src/
  spec: string; // as written
  target: string | null; // our file, relative to src/, or null for a package or node: module
  typeOnly: boolean;
}

const NEUTRAL = new Set([
  "errors.ts",
  "defaults.ts",
  "host-tool-defaults.ts",
  "model-port.ts",
  "capability-port.ts",
  "invocation-record.ts",
  "canonical-json.ts",
  "version.ts",
  "stop-signal.ts",
  "large-garbage.ts",
]);

/** Layer of a file relative to src/: its first folder, or "neutral". */
function layer(file: string): string {
  if (NEUTRAL.has(file)) return "neutral";
  const [first] = file.split("/");
  return first === file ? "root" : first;
}

/** Which layers each layer may import (values), beyond itself and the neutral files. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  neutral: [],
  frontend: [],
  config: [],
  journal: [],
  model: [],
  capabilities: ["config", "model"],
  observe: ["journal"],
  batch: ["model", "observe", "journal"],
  bridge: [],
  invocation: ["bridge"],
  mailbox: [],
  "scripted-model": ["config"],
  run: ["frontend", "bridge", "invocation", "model", "capabilities", "config", "journal", "observe", "mailbox", "batch", "scripted-model"],
  cli: ["run", "frontend", "bridge", "config", "journal", "observe", "setup", "eval"],
  eval: ["config", "journal"],
  setup: ["config", "capabilities", "model"],
};

/** Type-only imports a layer may make of another layer's files, beyond MAY_IMPORT. */
const TYPE_IMPORTS: Record<string, readonly string[]> = {
  // The protocol carries the frontend's plan and compile verdicts (docs/protocol.md).
  "bridge/protocol.ts": ["frontend/plan.ts", "frontend/oracle.ts"],
};

/** Finer rules inside a layer: files under the key may not import files under the values. */
const FORBIDDEN_WITHIN: Record<string, readonly string[]> = {
  "cli/": ["invocation/", "model/", "capabilities/"],
  // The code reader is a HostToolPort; the tool loop knows it only through that port.
  "invocation/code-reading/": ["invocation/orchestrator.ts", "invocation/batch-validation.ts", "invocation/tools.ts", "invocation/call-runner.ts"],
};

/** Outside systems and their only importers (files, or folders ending in /). */
const OWNERS: Record<string, readonly string[]> = {
  "tree-sitter": ["frontend/syntax-tree.ts"],
  "tree-sitter-python": ["frontend/syntax-tree.ts"],
  "better-sqlite3": ["journal/"],
  openai: ["model/"],
  "node:child_process": ["bridge/", "eval/spawn-aiython.ts"],
  execa: ["bridge/"],
  "smol-toml": ["config/"],
  unpdf: ["capabilities/document/"],
  // The SDK only where spans are made and sent (loaded only when OTEL_EXPORTER_OTLP_* is set).
  "@opentelemetry/api": ["observe/otel/span-builder.ts"],
  "@opentelemetry/sdk-trace-base": ["observe/otel/tracing.ts"],
  "@opentelemetry/resources": ["observe/otel/tracing.ts"],
  "@opentelemetry/exporter-trace-otlp-http": ["observe/otel/tracing.ts"],
  "@opentelemetry/exporter-trace-otlp-proto": ["observe/otel/tracing.ts"],
  "@decimalturn/toml-patch": ["config/"],
  "@inquirer/prompts": ["setup/"],
};

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file, out);
    else if (file.endsWith(".ts")) out.push(file);
  }
  return out;
}

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const from = path.relative(SRC, file);
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    let target: string | null = null;
    if (spec.startsWith(".")) {
      const resolved = path.resolve(path.dirname(file), spec).replace(/\.js$/, ".ts");
      target = path.relative(SRC, resolved);
    }
    found.push({ from, spec, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, Boolean(node.importClause?.isTypeOnly));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const packageOf = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
const under = (file: string, places: readonly string[]) => places.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p));

/** Every broken rule, as one line each. */
export function brokenRules(files: string[]): string[] {
  const problems: string[] = [];
  for (const imp of files.flatMap(importsOf)) {
    const where = `${imp.from} imports "${imp.spec}"`;
    if (imp.target === null) {
      const owners = OWNERS[packageOf(imp.spec)];
      if (owners && !under(imp.from, owners)) problems.push(`${where}: only ${owners.join(", ")} may use ${packageOf(imp.spec)}`);
      continue;
    }
    if (imp.target.startsWith("..")) {
      problems.push(`${where}: src/ imports nothing outside src/`);
      continue;
    }
    const [a, b] = [layer(imp.from), layer(imp.target)];
    if (a === "frontend" && b !== "frontend") {
      problems.push(`${where}: frontend/ imports nothing of ours outside frontend/`);
      continue;
    }
    const allowed = a === b || b === "neutral" || (MAY_IMPORT[a] ?? []).includes(b) || (imp.typeOnly && (TYPE_IMPORTS[imp.from] ?? []).includes(imp.target));
    if (!allowed) problems.push(`${where}: ${a}/ may import ${[...(MAY_IMPORT[a] ?? []), "the neutral files"].join(", ")} only`);
    for (const [inside, forbidden] of Object.entries(FORBIDDEN_WITHIN)) {
      if (imp.from.startsWith(inside) && under(imp.target, forbidden)) problems.push(`${where}: ${inside} may not import ${forbidden.join(", ")}`);
    }
  }
  return problems;
}

test("every file of src/ keeps the import rules of docs/architecture.md", () => {
  const files = walk(SRC);
  assert.ok(files.length > 100);
  assert.deepEqual(brokenRules(files), []);
});

test("every layer of src/ has a rule (a new folder needs a line in MAY_IMPORT and in the code map)", () => {
  const layers = new Set(walk(SRC).map((f) => layer(path.relative(SRC, f))));
  assert.deepEqual(
    [...layers].filter((l) => !(l in MAY_IMPORT)),
    [],
  );
});

/** The groups of files that import each other, directly or around a loop (type-only imports too). */
function importCycles(files: string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(path.relative(SRC, file), []);
  for (const imp of files.flatMap(importsOf)) if (imp.target !== null && graph.has(imp.target)) graph.get(imp.from)!.push(imp.target);
  // Tarjan's strongly connected components; a component of more than one file is a cycle.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file)!) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

test("no file of src/ imports itself around a loop, not even for a type (a type in the wrong file, or a split that kept a back door)", () => {
  assert.deepEqual(importCycles(walk(SRC)), []);
});

test("the cycle check finds a loop of type-only imports", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-cycle-probe-"));
  try {
    fs.writeFileSync(path.join(dir, "a.ts"), 'import type { B } from "./b.js";\nexport type A = B[];\n');
    fs.writeFileSync(path.join(dir, "b.ts"), 'import type { A } from "./a.js";\nexport type B = { a: A };\n');
    const probe = path.relative(SRC, dir);
    assert.deepEqual(importCycles(walk(dir)), [[`${probe}/a.ts`, `${probe}/b.ts`]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
