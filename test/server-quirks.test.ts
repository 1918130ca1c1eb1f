// Real servers (SPEC §5): every test/fixtures/servers/*.json is a server's recorded answers,
// named after it, each saying where its shapes come from. The loopback model replays them to
// the built CLI running fixtures/servers/pick.py (two AI blocks) against aiython.toml routes at
// the loopback, and the run must end as the fixture expects: stdout, exit status, the
// tool_choice sent on each request (the "auto" fallback and its memory across blocks), and
// messages that name the fix without the server's text. Below, the JSON-in-content reader's
// edges as units.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { toolCallsFromContent, serverHint } from "../src/model/server-quirks.js";
import type { ToolSpec } from "../src/model-port.js";
import { startLoopbackModel, LOOPBACK_SECRET, type ScriptedReply } from "./support/loopback-model.js";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "servers");
const KEY = "sk-quirks-NEVER-SHOWN-8c2d";

interface ServerFixture {
  server: string;
  quirk: string;
  source: string;
  model: string;
  replies: ScriptedReply[];
  expect: { exit: number; stdout: string; tool_choice: string[]; stderr_includes?: string[]; stderr_excludes?: string[] };
}

const fixtures = fs
  .readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name: name.replace(/\.json$/, ""), fixture: JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")) as ServerFixture }));

describe("server fixtures replayed through the built CLI", () => {
  test("every server the issue names has a fixture that says where its shapes come from", () => {
    const servers = new Set(fixtures.map((f) => f.fixture.server));
    for (const server of ["OpenAI", "Ollama", "vLLM", "llama.cpp", "Gemini", "OpenRouter"]) assert.ok(servers.has(server), `no fixture for ${server}`);
    for (const { name, fixture } of fixtures) {
      assert.ok(fixture.source.length > 20 && fixture.quirk.length > 20, `${name}: say what the quirk is and where it was recorded from`);
      assert.ok(name.startsWith(fixture.server.toLowerCase().replace(/\./g, "")), `${name}: the file is named after its server`);
    }
  });

  for (const { name, fixture } of fixtures) {
    test(`${name}: ${fixture.quirk}`, async () => {
      const model = await startLoopbackModel({ script: fixture.replies });
      try {
        const dir = tempProject({
          "pick.py": { copy: path.join(FIXTURES, "pick.py") },
          "aiython.toml": `version = 3\nmodel = "${fixture.model}"\napi_base = "${model.url}"\napi_key_env = "QUIRKS_KEY"\n`,
        });
        const ran = await aiython(["pick.py"], { cwd: dir, env: cleanEnv({ QUIRKS_KEY: KEY }) });
        const chats = model.requests.filter((r) => r.path === "/v1/chat/completions");
        assert.deepEqual(model.problems, [], "the fixture's replies fit the run");
        assert.equal(ran.stdout, fixture.expect.stdout, ran.stderr);
        assert.equal(ran.exitCode, fixture.expect.exit, ran.stderr);
        assert.deepEqual(
          chats.map((r) => r.body?.tool_choice),
          fixture.expect.tool_choice,
        );
        assert.equal(chats.length, fixture.replies.length, "every recorded answer was asked for, no more");
        for (const text of fixture.expect.stderr_includes ?? []) assert.ok(ran.stderr.includes(text), `stderr lacks ${JSON.stringify(text)}:\n${ran.stderr}`);
        for (const text of fixture.expect.stderr_excludes ?? []) assert.ok(!ran.stderr.includes(text), `stderr shows the server's text ${JSON.stringify(text)}`);
        assert.ok(!ran.stderr.includes(KEY) && !ran.stderr.includes(LOOPBACK_SECRET));
        if (fixture.expect.exit === 1) assert.match(ran.stderr, /File ".*pick\.py", line 2, in <module>\n[\s\S]*AIError: /);
      } finally {
        await model.close();
      }
    });
  }
});

const tools: ToolSpec[] = ["evaluate", "finish"].map((name) => ({
  type: "function",
  function: { name, description: name, parameters: { type: "object", properties: {}, additionalProperties: false } },
}));

describe("tool calls written as JSON in content", () => {
  test("the forms small models write: bare, fenced, tagged, a list, OpenAI's own shape", () => {
    const read = (content: string) => toolCallsFromContent(content, tools)?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]);
    assert.deepEqual(read('{"name": "finish", "parameters": {"outcome": {"kind": "none"}}}'), [["finish", { outcome: { kind: "none" } }]]);
    assert.deepEqual(read('```json\n{"name": "evaluate", "arguments": {"code": "1"}}\n```'), [["evaluate", { code: "1" }]]);
    // A lead-in sentence (and a closing one) around the fence, as small local models write it.
    assert.deepEqual(read('I will evaluate it first.\n\n```json\n{"name": "evaluate", "arguments": {"code": "1"}}\n```\nThen I finish.'), [["evaluate", { code: "1" }]]);
    assert.deepEqual(
      read(
        '<tool_call>\n{"name": "evaluate", "arguments": {"code": "1"}}\n</tool_call>\n<tool_call>\n{"name": "finish", "arguments": "{\\"outcome\\": {\\"kind\\": \\"none\\"}}"}\n</tool_call>',
      ),
      [
        ["evaluate", { code: "1" }],
        ["finish", { outcome: { kind: "none" } }],
      ],
    );
    assert.deepEqual(read('[{"type": "function", "function": {"name": "finish", "arguments": {}}}]'), [["finish", {}]]);
    assert.deepEqual(read('{"tool_calls": [{"id": "c1", "function": {"name": "evaluate", "arguments": "{}"}}]}'), [["evaluate", {}]]);
    assert.equal(toolCallsFromContent('{"id": "c1", "function": {"name": "finish"}}', tools)?.[0].id, "c1");
  });

  test("prose, other JSON, tools the request did not offer and half-valid lists stay content", () => {
    for (const content of [
      "The answer is 7.",
      '{"answer": 7}',
      '{"name": "execute", "arguments": {"code": "x = 1"}}',
      '[{"name": "finish", "arguments": {}}, {"name": "delete_everything"}]',
      '{"name": "finish", "arguments": {',
      'Here you go: ```json\n{"name": "finish"}\n``` done', // a fence that opens inside a line is prose
      'Two fences:\n```json\n{"name": "finish", "arguments": {}}\n```\n```\nprint(1)\n```', // one of them not a call
    ]) {
      assert.equal(toolCallsFromContent(content, tools), null, content);
    }
    assert.equal(toolCallsFromContent('{"name": "finish"}', []), null, "no tools offered");
  });
});

describe("what an error body tells", () => {
  test("tool_choice rejections, --jinja and vLLM's launch flags; nothing else", () => {
    assert.equal(serverHint(400, 'tool_choice = "required" is not supported!'), "tool_choice_rejected");
    assert.equal(serverHint(404, "No endpoints found that support the provided 'tool_choice' value."), "tool_choice_rejected");
    assert.equal(serverHint(500, "tools param requires --jinja flag"), "needs_jinja");
    assert.equal(serverHint(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'), "needs_auto_tool_choice_flags");
    assert.equal(serverHint(500, "tool_choice exploded"), null, "a 5xx naming tool_choice is still a server failure");
    assert.equal(serverHint(404, '{"error": {"message": "The model `x` does not exist"}}'), null);
    assert.equal(serverHint(400, null), null);
  });
});
