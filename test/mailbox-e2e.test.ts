// End-to-end: the collaboration mailbox of SPEC §8 (`from aiython import group, join`) between
// threads, asyncio tasks and processes, its bounds, and the tools a joined invocation gets. The
// built CLI runs the fixtures, with no model (the mailbox needs none) or the loopback model.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { finishCall, startLoopbackModel, toolCall, type RecordedRequest, type Responder } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "mailbox");

async function run(fixture: string, args: string[] = [], responder: Responder | null = null) {
  const dir = tempProject({ [fixture]: { copy: path.join(FIXTURES, fixture) } }, { prefix: "aiython-mail-" });
  const server = responder ? await startLoopbackModel({ responder }) : null;
  const env = server ? { OPENAI_API_KEY: "sk-test", AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url } : {};
  try {
    const result = await aiython([fixture, ...args], { cwd: dir, env: cleanEnv(env) });
    return { ...result, requests: server?.requests.filter((r: RecordedRequest) => r.path.endsWith("/chat/completions")) ?? [] };
  } finally {
    await server?.close();
  }
}

const toolNames = (request: RecordedRequest): string[] => request.body.tools.map((t: { function: { name: string } }) => t.function.name);
const live = (request: RecordedRequest) => JSON.parse(request.body.messages[2].content);
const stable = (request: RecordedRequest) => JSON.parse(request.body.messages[1].content);

test("ping-pong between a thread and an asyncio task", async () => {
  const result = await run("thread_task.py");
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "a peers ['b']\nb got [('a', {'ping': 1})]\na got [{'pong': 2}]\n");
});

for (const method of ["fork", "spawn"]) {
  test(`ping-pong between two processes (${method})`, async () => {
    const result = await run("processes.py", [method]);
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "b got [('a', 'ping')]\na got ['pong']\nexit 0 0\n");
  });
}

test("bounds: 100 unread per recipient, 64 KiB payloads, ids delivered once, clear refusals", async () => {
  const result = await run("bounds.py");
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(
    result.stdout,
    [
      "pending 100",
      'refused: "peer" has 100 unread messages, the limit; it must read before more can be sent',
      "read 100 then 0",
      "refused: a payload of 65538 bytes is over the 65536-byte limit; send less, or the name of a file",
      "sent True",
      "m-1 m-1 ['once']",
      'refused: no participant "nobody" in this group; peers: peer',
      "refused: a payload must be a JSON value (dict, list, str, int, float, bool, None): Object of type set is not JSON serializable",
      "refused: not a ticket of this run; use the string team.invite(name) returned",
      'refused: "me" is already invited to this group; invite each participant once',
      "wait 0",
      "",
    ].join("\n"),
  );
});

test("a joined thread's invocation sees its unread count and reads its messages with the mailbox tools", async () => {
  const responder: Responder = (request) => {
    if (stable(request).statement === "a block outside the mailbox") return finishCall({ kind: "literal", value: "alone" });
    const results = request.body.messages.filter((m: { role: string }) => m.role === "tool");
    if (results.length === 0) return { toolCalls: [toolCall("read_messages", {})] };
    const read = JSON.parse(results[0].content).result;
    return finishCall({ kind: "literal", value: read.messages[0].payload.task });
  };
  const result = await run("joined_block.py", [], responder);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "worker answered say hello\nmain alone\n");
  const [first, , outside] = result.requests;
  assert.equal(result.requests.length, 3);
  for (const tool of ["list_peers", "send_message", "read_messages"]) assert.ok(toolNames(first).includes(tool), tool);
  assert.deepEqual(live(first).mailbox, { me: "worker", peers: ["lead"], unread: 1 });
  assert.ok(!toolNames(outside).includes("read_messages"), "a thread that never joined gets no mailbox tools");
  assert.equal(live(outside).mailbox, undefined);
});
