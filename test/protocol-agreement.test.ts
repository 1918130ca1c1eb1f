// The bridge protocol is one contract (STYLE habit 7): docs/protocol.md's tables, the host's
// types (src/bridge/protocol.ts, read with the TypeScript compiler) and the bridge's
// mirror (bridge-py/aiython_bridge/protocol.py, read by running it) must name the same messages,
// senders, fields, frame operations and payload fields, and the same version. A field written
// `name?` may be absent; in TypeScript that is an optional property or one missing from some
// members of a union.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { ROOT } from "./support/run-cli.js";

type Fields = string[];

const DOC = fs.readFileSync(path.join(ROOT, "docs", "protocol.md"), "utf8");
const PROTOCOL_TS = path.join(ROOT, "src", "bridge", "protocol.ts");
const PLAN_TS = path.join(ROOT, "src", "frontend", "plan.ts");
const PAYLOAD_NAMES = ["RunOptions", "ChildHello", "RunFolder", "PauseRequest", "PauseLocation", "RecoveryDetails", "SourceWindow", "Plan", "BlockInfo", "CheckpointInfo", "ErrorInfo"];

// ---- the document ----------------------------------------------------------------------------

function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `docs/protocol.md has a "## ${title}" section`);
  const next = DOC.indexOf("\n## ", start + 1);
  return DOC.slice(start, next < 0 ? undefined : next);
}

/** Rows of the first table after `from` whose first cell is code: the cells, backticks kept. */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.startsWith("| `"));
  const rows: string[][] = [];
  for (let i = first; i >= 0 && i < lines.length && lines[i].startsWith("|"); i++) {
    rows.push(lines[i].split("|").slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const codeNames = (cell: string): Fields => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
const unquote = (cell: string) => cell.replace(/`/g, "");

function documented() {
  const messages = new Map(tableRows(section("Messages")).map((r) => [unquote(r[0]), { from: r[1], fields: codeNames(r[2]) }]));
  const ops = new Map(tableRows(section("Frame operations")).map((r) => [unquote(r[0]), codeNames(r[1])]));
  const payloads = new Map<string, Fields>();
  const text = section("Payloads");
  for (const match of text.matchAll(/^### `(\w+)`$/gm)) {
    payloads.set(match[1], tableRows(text.slice(match.index)).map((r) => unquote(r[0])).sort());
  }
  const version = Number(/^# The bridge protocol \(version (\d+)\)/.exec(DOC)?.[1]);
  return { messages, ops, payloads, version };
}

// ---- the host's types ------------------------------------------------------------------------

function typescriptSide() {
  const program = ts.createProgram([PROTOCOL_TS, PLAN_TS], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) => {
    const source = program.getSourceFile(file)!;
    return new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => [s.name, s]));
  };
  const exported = new Map([...exportsOf(PLAN_TS), ...exportsOf(PROTOCOL_TS)]);
  const typeOf = (name: string) => checker.getDeclaredTypeOfSymbol(exported.get(name)!);

  /** Fields of a type (or of a union's members together), `?` where not always present. */
  const fieldsOf = (type: ts.Type, skip: string[] = []): Fields => {
    const members = type.isUnion() ? type.types : [type];
    const names = new Set(members.flatMap((m) => m.getProperties().map((p) => p.name)));
    return [...names].filter((name) => !skip.includes(name)).map((name) => {
      const always = members.every((m) => {
        const p = m.getProperty(name);
        return p !== undefined && !(p.flags & ts.SymbolFlags.Optional);
      });
      return always ? name : `${name}?`;
    }).sort();
  };

  const messages = new Map<string, { senders: Set<string>; members: ts.Type[] }>();
  for (const [union, from] of [["BridgeMessage", "bridge"], ["HostMessage", "host"]] as const) {
    for (const member of (typeOf(union) as ts.UnionType).types) {
      const literal = checker.getTypeOfSymbol(member.getProperty("type")!) as ts.StringLiteralType;
      const entry = messages.get(literal.value) ?? { senders: new Set<string>(), members: [] };
      entry.senders.add(from);
      if (!entry.members.includes(member)) entry.members.push(member);
      messages.set(literal.value, entry);
    }
  }
  const opArgs = typeOf("OpArguments");
  return {
    messages: new Map([...messages].map(([type, { senders, members }]) => {
      const from = senders.size === 2 ? "both" : [...senders][0];
      const union = members.length === 1 ? members[0] : ({ isUnion: () => true, types: members } as unknown as ts.Type);
      // Ops are one message whose members differ only in `op` and `args`.
      return [type, { from, fields: type === "op" ? fieldsOf(members[0], ["type"]) : fieldsOf(union, ["type"]) }];
    })),
    ops: new Map(opArgs.getProperties().map((p) => [p.name, fieldsOf(checker.getTypeOfSymbol(p))])),
    payloads: new Map(PAYLOAD_NAMES.map((name) => [name, fieldsOf(typeOf(name))])),
    version: Number((exported.get("PROTOCOL_VERSION")!.valueDeclaration as ts.VariableDeclaration).initializer!.getText()),
  };
}

// ---- the bridge's mirror ---------------------------------------------------------------------

function pythonSide() {
  const script = [
    "import json, sys",
    `sys.path.insert(0, ${JSON.stringify(path.join(ROOT, "bridge-py"))})`,
    "from aiython_bridge import protocol as p",
    "print(json.dumps({'messages': p.MESSAGES, 'payloads': p.PAYLOADS, 'ops': p.OPS, 'version': p.PROTOCOL_VERSION}))",
  ].join("\n");
  const out = JSON.parse(execFileSync(process.env.AIYTHON_TEST_PYTHON ?? "python3", ["-c", script], { encoding: "utf8" }));
  const boot = fs.readFileSync(path.join(ROOT, "bridge-py", "aiython_bridge", "boot.py"), "utf8");
  return {
    messages: new Map(Object.entries(out.messages as Record<string, [string, Fields]>).map(([type, [from, fields]]) => [type, { from, fields: [...fields].sort() }])),
    ops: new Map(Object.entries(out.ops as Record<string, Fields>).map(([op, fields]) => [op, [...fields].sort()])),
    payloads: new Map(Object.entries(out.payloads as Record<string, Fields>).map(([name, fields]) => [name, [...fields].sort()])),
    version: out.version as number,
    helloVersion: Number(/"protocol":\s*(\d+)/.exec(boot)?.[1]),
  };
}

const doc = documented();
const host = typescriptSide();
const bridge = pythonSide();
const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)));

test("one protocol version in the document, the host, the bridge and the bridge's hello", () => {
  assert.equal(host.version, doc.version);
  assert.equal(bridge.version, doc.version);
  assert.equal(bridge.helloVersion, doc.version, "boot.py's hello literal");
});

test("the host's message types name the document's messages, senders and fields", () => {
  assert.deepEqual(sorted(host.messages), sorted(doc.messages));
});

test("the bridge's MESSAGES name the document's messages, senders and fields", () => {
  assert.deepEqual(sorted(bridge.messages), sorted(doc.messages));
});

test("frame operations and their arguments agree", () => {
  assert.deepEqual(sorted(host.ops), sorted(doc.ops));
  assert.deepEqual(sorted(bridge.ops), sorted(doc.ops));
});

test("payload fields agree: run options, pause requests, plans, error info", () => {
  assert.deepEqual([...doc.payloads.keys()].sort(), [...PAYLOAD_NAMES].sort(), "the document describes each payload");
  assert.deepEqual(sorted(host.payloads), sorted(doc.payloads));
  assert.deepEqual(sorted(bridge.payloads), sorted(doc.payloads));
});
