// End-to-end: permissions (SPEC §7, §9) are checked before the action, and a denied one ends the
// invocation with a message naming the permission, the profile and the setting that allows it.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { offeredTools, runWithModel, toolMessages } from "./support/run-with-model.js";

const BLOCK = "x = 1\nresult = work out the answer\nprint(result)\n";
const toml = (permissions: string, profile = "") =>
  `version = 3\nmodel = { model = "test-model", api_base = "$URL", api_key_env = "OPENAI_API_KEY" }\n${profile ? "" : `permissions = ${permissions}\n`}` +
  (profile ? `[profiles.${profile}]\npermissions = ${permissions}\n` : "");

test("execute without execute_code: the block fails naming the permission and the profile; nothing runs", async () => {
  const run = await runWithModel({ "main.py": BLOCK }, [{ toolCalls: [toolCall("execute", { code: "x = 2" }), toolCall("finish", { outcome: { kind: "literal", value: 1 } })] }], {
    toml: toml('["network", "read_code"]'),
  });
  assert.equal(run.exitCode, 1);
  assert.match(run.stderr, /File ".*main\.py", line 2, in <module>/);
  assert.match(
    run.stderr,
    /AIError: the model called execute, which needs the execute_code permission; profile "default" does not grant it \(to allow it, add "execute_code" to permissions in aiython\.toml\)/,
  );
  assert.equal(run.requests.length, 1, "the invocation ended at once");
  assert.ok(!offeredTools(run.requests[0]).includes("execute"), "execute was not offered either");
});

test("a profile without write_filesystem: the model's code cannot write a file, and the block fails saying so", async () => {
  const main = '# aiython: profile="strict"\nnote = write a note\nprint(note)\n';
  const run = await runWithModel(
    { "main.py": main },
    [{ toolCalls: [toolCall("execute", { code: "open('note.txt', 'w').write('hi')" })] }, finishCall({ kind: "literal", value: "unused" })],
    { toml: `${toml('["network", "execute_code"]', "strict")}` },
  );
  assert.equal(run.exitCode, 1, run.stderr);
  assert.match(
    run.stderr,
    /AIError: the model ran execute code that tried writing note\.txt, which needs the write_filesystem permission; profile "strict" does not grant it \(to allow it, add "write_filesystem" to profiles\.strict\.permissions in aiython\.toml\)/,
  );
  assert.equal(fs.existsSync(path.join(run.dir, "note.txt")), false);
  assert.equal(run.requests.length, 1);
});

test("without network the model is never called", async () => {
  const run = await runWithModel({ "main.py": BLOCK }, [finishCall({ kind: "literal", value: 1 })], { toml: toml('["execute_code"]') });
  assert.equal(run.exitCode, 1);
  assert.match(
    run.stderr,
    /AIError: the model cannot be called: profile "default" does not grant the network permission \(to allow it, add "network" to permissions in aiython\.toml\)/,
  );
  assert.equal(run.requests.length, 0);
});

test("in recovery the exception propagates as under python3, and the permission is named on stderr", async () => {
  const run = await runWithModel({ "main.py": "value = int('x')\n" }, [{ toolCalls: [toolCall("execute", { code: "value = 1" })] }], { toml: toml('["network"]') });
  assert.equal(run.exitCode, 1);
  assert.match(run.stderr, /^aiython: the model called execute, which needs the execute_code permission; profile "default" does not grant it/m);
  assert.match(run.stderr, /ValueError: invalid literal for int\(\) with base 10: 'x'\n$/);
  assert.equal(toolMessages(run.requests[0]).length, 0);
});

test("read_code without the read_code permission: the block fails naming it; no file is read", async () => {
  const run = await runWithModel(
    { "main.py": BLOCK, "helper.py": "SECRET_LOOKING = 1\n" },
    [{ toolCalls: [toolCall("read_code", { path: "helper.py" })] }, finishCall({ kind: "literal", value: 1 })],
    {
      toml: toml('["network", "execute_code"]'),
    },
  );
  assert.equal(run.exitCode, 1);
  assert.match(
    run.stderr,
    /AIError: the model called read_code, which needs the read_code permission; profile "default" does not grant it \(to allow it, add "read_code" to permissions in aiython\.toml\)/,
  );
  assert.equal(run.requests.length, 1, "the invocation ended at once");
  assert.ok(!offeredTools(run.requests[0]).includes("read_code"));
});
