// End-to-end: the code-reading tools (SPEC §9). read_code, search_code and list_code_files show
// project files only — no "..", no hidden, dependency, configuration or credential files —
// bounded in lines and bytes with truncation flags, and are offered only with read_code.

import assert from "node:assert/strict";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { offeredTools, runWithModel, toolMessages } from "./support/run-with-model.js";

const FILES = {
  "main.py": "from pkg import helper\nanswer = find what helper.LIMIT is\nprint(answer)\n",
  "pkg/__init__.py": "",
  "pkg/helper.py": "# the limit of the helper\nLIMIT = 42\n",
  "README.md": "Project notes\n",
  "big.py": Array.from({ length: 1000 }, (_, i) => `line_${i} = ${i}\n`).join(""),
  ".env": "OPENAI_API_KEY=sk-never-shown\n",
  ".hidden/secret.py": "X = 1\n",
  "node_modules/dep/index.js": "module.exports = 1\n",
  "venv/pyvenv.cfg": "home = /usr\n",
  "venv/lib/tool.py": "Y = 1\n",
  "keys/server.pem": "-----BEGIN-----\n",
  "data.bin": "\u0000\u0001binary",
};

test("the model reads, searches and lists project code, and nothing else", async () => {
  const run = await runWithModel(
    FILES,
    [
      {
        toolCalls: [
          toolCall("list_code_files", {}),
          toolCall("search_code", { text: "limit" }),
          toolCall("read_code", { path: "pkg/helper.py", start_line: 2 }),
          toolCall("read_code", { path: "big.py" }),
        ],
      },
      { toolCalls: [toolCall("read_code", { path: "../main.py" })] },
      { toolCalls: [toolCall("read_code", { path: ".env" })] },
      { toolCalls: [toolCall("read_code", { path: "aiython.toml" })] },
      { toolCalls: [toolCall("read_code", { path: "node_modules/dep/index.js" })] },
      { toolCalls: [toolCall("read_code", { path: "venv/lib/tool.py" })] },
      finishCall({ kind: "literal", value: 42 }),
    ],
    { toml: 'version = 3\nmodel = { model = "m", api_base = "$URL", api_key_env = "OPENAI_API_KEY" }\n' },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "42\n");
  const [list, search, read, big] = toolMessages(run.requests[1]).map((m) => m.result as Record<string, any>);
  assert.deepEqual(
    list.files.map((f: { path: string }) => f.path),
    ["README.md", "big.py", "main.py", "pkg/__init__.py", "pkg/helper.py"],
  );
  assert.equal(list.truncated, false);
  assert.deepEqual(search.matches, [
    { path: "main.py", line: 2, text: "answer = find what helper.LIMIT is" },
    { path: "pkg/helper.py", line: 1, text: "# the limit of the helper" },
    { path: "pkg/helper.py", line: 2, text: "LIMIT = 42" },
  ]);
  assert.deepEqual(read, { path: "pkg/helper.py", start_line: 2, end_line: 2, total_lines: 2, text: "LIMIT = 42\n", truncated: false });
  assert.equal(big.end_line, 400);
  assert.equal(big.total_lines, 1000);
  assert.equal(big.truncated, true);
  const refusals = run.requests.slice(2).map((r) => toolMessages(r).at(-1)!);
  assert.deepEqual(
    refusals.map((r) => r.error),
    ["PathRefused", "PathRefused", "PathRefused", "PathRefused", "PathRefused"],
  );
  assert.match(refusals[0].message!, /"\.\.\/main\.py" uses "\.\."/);
  assert.match(refusals[1].message!, /hidden/);
  assert.match(refusals[2].message!, /configuration or credential file/);
  assert.match(refusals[3].message!, /node_modules, a dependency or cache folder/);
  assert.match(refusals[4].message!, /virtual environment/);
  assert.ok(!JSON.stringify(run.requests.map((r) => r.body.messages)).includes("sk-never-shown"));
});

test("the code tools are offered with read_code, to an AI block whose text speaks of code", async () => {
  const CODE_TOOLS = ["read_code", "search_code", "list_code_files"];
  const about = { "main.py": "answer = find which function in helper.py sets LIMIT\nprint(answer)\n", "helper.py": "LIMIT = 1\n" };
  const withIt = await runWithModel(about, [finishCall({ kind: "literal", value: 1 })]);
  assert.ok(CODE_TOOLS.every((t) => offeredTools(withIt.requests[0]).includes(t)));
  // A block about data, not code, keeps its request small (SPEC §5.1): evaluate reads what it needs.
  const plain = await runWithModel({ "main.py": "answer = pick a number\nprint(answer)\n" }, [finishCall({ kind: "literal", value: 1 })]);
  assert.equal(plain.exitCode, 0, plain.stderr);
  assert.deepEqual(
    offeredTools(plain.requests[0]).filter((t) => CODE_TOOLS.includes(t)),
    [],
  );
  const without = await runWithModel(about, [finishCall({ kind: "literal", value: 1 })], {
    toml: 'version = 3\nmodel = { model = "m", api_base = "$URL", api_key_env = "OPENAI_API_KEY" }\npermissions = ["network", "execute_code"]\n',
  });
  assert.equal(without.exitCode, 0, without.stderr);
  assert.deepEqual(
    offeredTools(without.requests[0]).filter((t) => t.includes("code")),
    [],
  );
  // A recovery may find its cause anywhere in the project: it gets them whatever its statement says.
  const recovery = await runWithModel({ "main.py": "value = int('x')\n" }, [{ toolCalls: [toolCall("recover", { action: "reraise" })] }]);
  assert.ok(CODE_TOOLS.every((t) => offeredTools(recovery.requests[0]).includes(t)));
});
