// Record and replay at the model port (SPEC §11): a run's answers are stored under their request
// keys and a --replay run gets the same answers without creating the live client; a request the
// recording does not hold fails with a ModelCallError naming the block; a broken journal is one
// warning and the run goes on. Driven through startObservers with a fake live model.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { loadConfig, profileFor, type ResolvedConfig } from "../src/config/index.js";
import { journalPath } from "../src/journal/index.js";
import { startObservers, type Observers } from "../src/run/observers.js";
import { NO_INTERPRETER_OPTIONS } from "../src/run/target.js";
import type { ModelPort, ModelRequest, ModelResponse } from "../src/model-port.js";
import { initialMessages } from "../src/invocation/prompt.js";
import { expressionBlock } from "./support/pause-requests.js";
import { filesUnder, makeUnwritable, tempProject } from "./support/journal-helpers.js";

const KEY = "sk-fake-REPLAY-TEST-KEY-93b1c0de";
const EXIT_0 = { status: 0, signal: null, how: "exit" as const };
const TIMINGS = { totalSeconds: 1, parseSeconds: 0, prepareSeconds: 0.1, executionSeconds: 0.9 };

async function configIn(root: string): Promise<ResolvedConfig> {
  return loadConfig({
    scriptPath: path.join(root, "tickets.py"),
    cwd: root,
    env: { AIYTHON_MODEL: "stand-in", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: KEY },
  });
}

function requestFor(ticket: string): ModelRequest {
  const pause = expressionBlock({ related_objects: [{ name: "ticket", handle: "object-1", type: "str", module: "builtins", qualname: "str", value: ticket }] });
  return { messages: initialMessages(pause, new Set(["execute_code"])), tools: [], toolChoice: "required" };
}

function answer(value: string): ModelResponse {
  return {
    message: { content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "finish", arguments: JSON.stringify({ outcome: { kind: "literal", value } }) } }] },
    usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
    requestBytes: 4321,
    providerSeconds: 0.5,
    route: "stand-in",
  };
}

class FakeLive implements ModelPort {
  calls = 0;
  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.calls += 1;
    return answer(/charged/.test(JSON.stringify(request.messages)) ? "billing" : "bug");
  }
}

async function observe(config: ResolvedConfig, replay: boolean | "fill", journal = true): Promise<Observers> {
  const mode = replay ? { run: null, fill: replay === "fill" } : null;
  const command = {
    program: { kind: "script" as const, path: "tickets.py" },
    programArgs: ["--account", KEY],
    interpreter: NO_INTERPRETER_OPTIONS,
    origArgv: ["tickets.py", "--account", KEY],
    ignoredSignals: [],
    stats: false as const,
    traceFile: null,
    replay: mode,
    journal,
    env: { OPENAI_API_KEY: KEY },
  };
  return startObservers({ config, command });
}

function captureStderr(): { lines: string[]; restore: () => void } {
  const lines: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  return { lines, restore: () => void (process.stderr.write = original) };
}

const deadline = () => ({ deadline: Date.now() + 10_000 });

test("a recorded answer is replayed exactly, without creating the live client", async () => {
  const root = tempProject();
  const config = await configIn(root);
  const profile = profileFor(config, null);
  const live = new FakeLive();
  const recorder = await observe(config, false);
  const model = recorder.wiring.modelFor!(profile, () => live);
  const recorded = [await model.complete(requestFor("I was charged twice"), deadline()), await model.complete(requestFor("The app crashes"), deadline())];
  await recorder.finish(EXIT_0, TIMINGS);
  assert.equal(live.calls, 2);

  const replayer = await observe(config, true);
  const replayModel = replayer.wiring.modelFor!(profile, () => assert.fail("--replay created the live model client"));
  const replayed = [await replayModel.complete(requestFor("I was charged twice"), deadline()), await replayModel.complete(requestFor("The app crashes"), deadline())];
  await replayer.finish(EXIT_0, TIMINGS);
  assert.deepEqual(
    replayed.map((r) => r.message),
    recorded.map((r) => r.message),
  );
  assert.deepEqual(
    replayed.map((r) => [r.usage, r.requestBytes, r.route, r.providerSeconds]),
    recorded.map((r) => [r.usage, r.requestBytes, r.route, 0]),
  );
  for (const file of filesUnder(path.join(root, ".aiython"))) {
    assert.equal(fs.readFileSync(file).includes(KEY), false, `${file} holds the API key`);
  }
});

test("a request the recording does not hold fails with a ModelCallError naming the block", async () => {
  const root = tempProject();
  const config = await configIn(root);
  const profile = profileFor(config, null);
  const recorder = await observe(config, false);
  await recorder.wiring.modelFor!(profile, () => new FakeLive()).complete(requestFor("I was charged twice"), deadline());
  await recorder.finish(EXIT_0, TIMINGS);

  const replayer = await observe(config, true);
  const model = replayer.wiring.modelFor!(profile, () => assert.fail("--replay created the live model client"));
  await assert.rejects(model.complete(requestFor("Refund please"), deadline()), (error: Error & { kind?: string }) => {
    assert.equal(error.name, "ModelCallError");
    assert.equal(error.kind, "not_found");
    assert.match(
      error.message,
      /^--replay: no recorded answer for tickets\.py:9; the nearest recorded request for this block \(run 1, \d{4}-\d\d-\d\d \d\d:\d\d UTC\) differs in\n/,
    );
    assert.equal(
      error.message.split("\n").slice(1).join("\n"),
      "  related values: ticket\n" + "run once without --replay to record it, or with --replay=fill to record only what is missing",
    );
    assert.equal(error.message.includes("Refund") || error.message.includes("charged"), false, "the miss shows no program value");
    return true;
  });
  await replayer.finish({ status: 1, signal: null, how: "exit" }, TIMINGS);
});

test("--replay=fill answers what is recorded, sends only the rest, and records it for the next replay", async () => {
  const root = tempProject();
  const config = await configIn(root);
  const profile = profileFor(config, null);
  const recorder = await observe(config, false);
  await recorder.wiring.modelFor!(profile, () => new FakeLive()).complete(requestFor("I was charged twice"), deadline());
  await recorder.finish(EXIT_0, TIMINGS);

  const live = new FakeLive();
  const filler = await observe(config, "fill");
  const model = filler.wiring.modelFor!(profile, () => live);
  const old = await model.complete(requestFor("I was charged twice"), deadline());
  assert.equal(live.calls, 0, "a recorded request is not sent");
  assert.equal(old.replayed, true);
  const fresh = await model.complete(requestFor("The app crashes"), deadline());
  assert.equal(live.calls, 1, "the new request is sent once");
  assert.equal(fresh.replayed, undefined);
  await filler.finish(EXIT_0, TIMINGS);

  const replayer = await observe(config, true);
  const strict = replayer.wiring.modelFor!(profile, () => assert.fail("--replay created the live model client"));
  for (const ticket of ["I was charged twice", "The app crashes"]) assert.equal((await strict.complete(requestFor(ticket), deadline())).replayed, true);
  await replayer.finish(EXIT_0, TIMINGS);
});

test("a garbage journal is one warning; the live model still answers and nothing is recorded", async () => {
  const root = tempProject();
  fs.mkdirSync(path.join(root, ".aiython"));
  fs.writeFileSync(journalPath(root), "garbage ".repeat(1000));
  const config = await configIn(root);
  const stderr = captureStderr();
  try {
    const observers = await observe(config, false);
    const model = observers.wiring.modelFor!(profileFor(config, null), () => new FakeLive());
    const response = await model.complete(requestFor("I was charged twice"), deadline());
    observers.wiring.onInvocation!({ id: "inv-1", filename: path.join(root, "tickets.py"), line: 9, mode: "syntax", stats: {} as never, end: { status: "finished" } });
    await observers.finish(EXIT_0, TIMINGS);
    assert.match(JSON.parse(response.message.tool_calls[0].function.arguments).outcome.value, /billing/);
  } finally {
    stderr.restore();
  }
  assert.equal(stderr.lines.length, 1, stderr.lines.join(""));
  assert.match(
    stderr.lines[0],
    /^aiython: journal disabled: \S*\.aiython\/aiython\.sqlite is not a readable SQLite database \(SQLITE_NOTADB\); move it away and the next run starts a new journal\n$/,
  );
});

test("replaying from an unwritable journal folder names the problem in the miss", async (t) => {
  const root = tempProject();
  const dir = path.join(root, ".aiython");
  fs.mkdirSync(dir);
  const undo = makeUnwritable(dir);
  if (!undo) return t.skip("cannot make a folder unwritable here");
  const stderr = captureStderr();
  try {
    const config = await configIn(root);
    const observers = await observe(config, true);
    const model = observers.wiring.modelFor!(profileFor(config, null), () => assert.fail("--replay created the live model client"));
    await assert.rejects(model.complete(requestFor("x"), deadline()), /--replay: no recorded answer for tickets\.py:9 — the journal is not available \(cannot create/);
    await observers.finish({ status: 1, signal: null, how: "exit" }, TIMINGS);
  } finally {
    stderr.restore();
    undo();
  }
  assert.equal(stderr.lines.length, 1);
  assert.match(stderr.lines[0], /^aiython: journal disabled: cannot create/);
});

test("--no-journal opens nothing and records nothing", async () => {
  const root = tempProject();
  const config = await configIn(root);
  const live = new FakeLive();
  const observers = await observe(config, false, false);
  const model = observers.wiring.modelFor!(profileFor(config, null), () => live);
  await model.complete(requestFor("I was charged twice"), deadline());
  assert.equal(live.calls, 1, "without a journal every request goes to the live client (metered only)");
  await observers.finish(EXIT_0, TIMINGS);
  assert.equal(fs.existsSync(path.join(root, ".aiython")), false);
});
