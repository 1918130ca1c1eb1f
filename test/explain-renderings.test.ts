// `--explain` renderings (src/run/explain-json.ts, explain-text.ts): the JSON keeps SPEC §3.4's
// shape and key order; the text view marks blocks (colour or carets), checkpoints in the gutter,
// and ends with the summary line. The plan is the frontend's, the checkpoints the bridge's.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CheckpointInfo } from "../src/bridge/protocol.js";
import { analyzeSource, type Plan } from "../src/frontend/index.js";
import { renderExplainJson } from "../src/run/explain-json.js";
import { renderExplainText } from "../src/run/explain-text.js";
import { startPythonOracle, type PythonOracle } from "./support/python-oracle.js";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";

const TICKETS = `from typing import Literal

tickets = ["I was charged twice", "Refund please"]
queues = {"bug": [], "billing": []}

for ticket in tickets:
    kind: Literal["bug", "billing"] = classify this ticket
    queues[kind].append(ticket)

summary = summarize the routed tickets in one sentence
print(summary)
`;

let oracle: PythonOracle;
let plan: Plan;
let checkpoints: CheckpointInfo[];
before(async () => {
  oracle = startPythonOracle();
  plan = await analyzeSource({ source: TICKETS, filename: "/tmp/tickets.py", displayName: "tickets.py", oracle, capabilityNames: CAPABILITY_NAMES });
  checkpoints = await oracle.checkpoints(TICKETS, plan);
});
after(async () => {
  await oracle.close();
});

describe("--explain --json", () => {
  test("has exactly the documented keys, in order", () => {
    const config = { path: "aiython.toml", default_profile: "default", profiles: {} };
    const doc = JSON.parse(renderExplainJson(plan, checkpoints, { file: "tickets.py", python: "3.11.7", config }));
    assert.deepEqual(Object.keys(doc), ["file", "python", "config", "blocks", "checkpoints"]);
    assert.deepEqual(doc.config, config);
    assert.deepEqual(Object.keys(doc.blocks[0]), ["id", "statement", "kind", "span", "target", "output_type", "requires_result", "directive"]);
    assert.deepEqual(Object.keys(doc.blocks[0].span), ["line", "column", "end_line", "end_column"]);
    assert.deepEqual(Object.keys(doc.blocks[0].directive), ["profile", "prompts", "capability", "provider"]);
    assert.deepEqual(Object.keys(doc.checkpoints[0]), ["id", "span", "statement", "target", "retry_allowed"]);
  });

  test("describes the README's block as the spec example does", () => {
    const doc = JSON.parse(renderExplainJson(plan, checkpoints, { file: "tickets.py", python: "3.11.7", config: null }));
    assert.deepEqual(doc.blocks[0], {
      id: "tickets.py:1",
      statement: "classify this ticket",
      kind: "expression",
      span: { line: 7, column: 38, end_line: 7, end_column: 58 },
      target: "kind",
      output_type: "Literal['bug', 'billing']",
      requires_result: true,
      directive: { profile: null, prompts: [], capability: null, provider: null },
    });
    assert.deepEqual(doc.checkpoints[2], {
      id: "tickets.py:c3",
      span: { line: 4, column: 0, end_line: 4, end_column: 35 },
      statement: 'queues = {"bug": [], "billing": []}',
      target: "queues",
      retry_allowed: true,
    });
  });
});

describe("--explain for people", () => {
  test("without colour: carets under each block, its description, gutter marks, summary", () => {
    const text = renderExplainText(plan, checkpoints, TICKETS, { color: false });
    assert.doesNotMatch(text, /\x1b\[/);
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.includes("kind: Literal"));
    assert.match(lines[at], /^ 7 ● /);
    assert.equal(lines[at + 1].indexOf("^"), lines[at].indexOf("classify"));
    assert.equal(lines[at + 1].trim(), "^".repeat("classify this ticket".length));
    assert.match(lines[at + 2], /block 1: expression, target kind, type Literal\['bug', 'billing'\]/);
    assert.match(lines[lines.indexOf(" 2")], /^ 2$/); // a blank line, no checkpoint mark
    assert.equal(lines.filter((l) => /^ *\d+ ●/.test(l)).length, checkpoints.length);
    assert.match(text, /\n2 AI blocks, 8 checkpoints \(● marks where each starts\)\n$/);
  });

  test("with colour: blocks are highlighted instead of underlined", () => {
    const text = renderExplainText(plan, checkpoints, TICKETS, { color: true });
    assert.match(text, /\x1b\[7m/); // inverse
    assert.doesNotMatch(text, /\^\^\^/);
  });

  test("a file without blocks says so", async () => {
    const source = "x = 1\nprint(x)\n";
    const valid = await analyzeSource({ source, filename: "/tmp/v.py", displayName: "v.py", oracle, capabilityNames: CAPABILITY_NAMES });
    assert.match(
      renderExplainText(valid, await oracle.checkpoints(source, valid), source, { color: false }),
      /\nno AI blocks \(CPython compiles the file as it is\), 2 checkpoints \(● marks where each starts\)\n$/,
    );
  });
});
