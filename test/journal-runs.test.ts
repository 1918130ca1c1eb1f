// `aiython runs list|show` over a journal written directly (SPEC §11): the table of recent runs,
// one run's command line, interpreter and invocations with costs and outcomes, the effects a
// cut-short run left uncertain (§11.2), JSON forms, limits, and the errors for a bad id.

import { test } from "node:test";
import assert from "node:assert/strict";
import { openJournal } from "../src/journal/index.js";
import { runRunsCommand } from "../src/cli/commands/runs.js";
import { UsageError } from "../src/errors.js";
import { counters, END, runStart, tempProject } from "./support/journal-helpers.js";

async function projectWithRuns(): Promise<string> {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const first = journal.runs.start(runStart({ pid: 1 }));
  journal.runs.addInvocation(first, {
    invocation: "inv-1",
    file: "tickets.py",
    line: 14,
    mode: "syntax",
    status: "finished",
    action: null,
    missingCapability: null,
    counters: counters({ request_bytes: 5632, replayed: 1 }),
    endedAt: new Date(),
  });
  journal.runs.addInvocation(first, {
    invocation: "inv-2",
    file: "lib/util.py",
    line: 3,
    mode: "recovery",
    status: "finished",
    action: "retry",
    missingCapability: null,
    counters: counters({ model_calls: 2, tool_calls: 3, tool_failures: 1, cost_usd: null, unpriced_routes: ["local/llama"] }),
    endedAt: new Date(),
  });
  journal.runs.end(first, { ...END, status: 1, totalSeconds: 2, parseSeconds: 0.1, prepareSeconds: 0.2, executionSeconds: 1.7 });
  const second = journal.runs.start(runStart({ script: "-c", args: ["x"], argv: ["-c", "x"], mode: "replay", sourceRun: first, pid: 2 }));
  journal.runs.end(second, { ...END, status: null, signal: "SIGINT", how: "signal", totalSeconds: 1, prepareSeconds: 0.1, executionSeconds: 0.9 });
  const third = journal.runs.start(runStart({ script: "-m tool", argv: ["-m", "tool"], pid: 3 }));
  const effect = { exchangeSeq: 1, callId: "call_7", tool: "execute", block: "tool.py:4" };
  journal.effects.end(journal.effects.start(third, { ...effect, callId: "call_6" }, new Date()), new Date());
  journal.effects.start(third, effect, new Date());
  journal.close();
  return root;
}

async function runs(root: string, args: string[]): Promise<string> {
  let out = "";
  const outcome = await runRunsCommand(args, { cwd: root, env: {}, out: (text) => void (out += text) });
  assert.deepEqual(outcome, { kind: "status", status: 0 });
  return out;
}

test("runs list: newest first, with exit status, signal or '-' for a run that did not end", async () => {
  const root = await projectWithRuns();
  const lines = (await runs(root, ["list"])).trimEnd().split("\n");
  assert.match(lines[0], /^ {2}id\s+started\s+script\s+exit\s+invocations\s+model calls\s+replayed\s+cost$/);
  assert.deepEqual(
    lines.slice(1).map((line) =>
      line
        .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/, "TIME")
        .trim()
        .split(/\s{2,}/),
    ),
    [
      ["3", "TIME", "-m tool", "-", "0", "0", "0", "$0"],
      ["2", "TIME", "-c (replay of 1)", "SIGINT", "0", "0", "0", "$0"],
      ["1", "TIME", "tickets.py", "1", "2", "3", "1", "unknown"],
    ],
  );
  assert.equal((await runs(root, ["list", "--limit", "1"])).trimEnd().split("\n").length, 2);
  const json = JSON.parse(await runs(root, ["list", "--json"]));
  assert.deepEqual(
    json.map((run: { id: number; invocations: number }) => [run.id, run.invocations]),
    [
      [3, 0],
      [2, 0],
      [1, 2],
    ],
  );
  assert.deepEqual(
    json.map((run: { costUsd: number | null; unpricedRoutes: string[] }) => [run.costUsd, run.unpricedRoutes]),
    [
      [0, []],
      [0, []],
      [null, ["local/llama"]],
    ],
  );
});

test("runs show: the run's phases and each invocation's mode, outcome and costs", async () => {
  const root = await projectWithRuns();
  const out = await runs(root, ["show", "1"]);
  const lines = out.trimEnd().split("\n");
  assert.equal(lines[0], "run 1: tickets.py");
  assert.equal(lines[1], "  command: aiython tickets.py");
  assert.equal(lines[2], "  python 3.11.7 (/usr/bin/python3), profile default (openai/m)");
  assert.match(lines[3], /^ {2}started .*, ended .*, exit 1$/);
  assert.equal(lines[4], "  time: total 2.000 s, parse 0.100 s, prepare 0.200 s, execution 1.700 s");
  assert.equal(lines[5], "  2 AI invocations, 3 model calls (1 replayed), 4 tool calls, 10.4 KB sent, 1840 tokens, cost unknown (no price for local/llama)");
  assert.match(lines[6], /^ {2}block\s+mode\s+outcome\s+model calls\s+replayed\s+tool calls\s+request\s+tokens\s+cost\s+problems\s+seconds$/);
  assert.deepEqual(
    lines.slice(7).map((line) => line.trim().split(/\s{2,}/)),
    [
      ["tickets.py:14", "syntax", "finished", "1", "1", "1", "5.5 KB", "920", "$0.000420", "0", "0.300"],
      ["lib/util.py:3", "recovery", "retry", "2", "0", "3", "4.9 KB", "920", "unknown", "1", "0.300"],
    ],
  );
  const json = JSON.parse(await runs(root, ["show", "1", "--json"]));
  assert.equal(json.run.id, 1);
  assert.deepEqual(
    json.invocations.map((inv: { file: string; line: number }) => `${inv.file}:${inv.line}`),
    ["tickets.py:14", "lib/util.py:3"],
  );
});

test("runs show names an effect a run started and never saw end, and says what kind of run a replay was", async () => {
  const root = await projectWithRuns();
  const cut = (await runs(root, ["show", "3"])).trimEnd().split("\n");
  assert.equal(cut[1], "  command: aiython -m tool");
  assert.equal(cut.at(-1), "  uncertain: execute at tool.py:4 (call call_7), started and never seen to end");
  assert.equal(cut.filter((line) => line.includes("uncertain")).length, 1, "the effect that ended is not uncertain");
  const json = JSON.parse(await runs(root, ["show", "3", "--json"]));
  assert.deepEqual(
    json.effects.map((e: { callId: string; status: string }) => [e.callId, e.status]),
    [
      ["call_6", "ended"],
      ["call_7", "started"],
    ],
  );
  const replay = JSON.parse(await runs(root, ["show", "2", "--json"])).run;
  assert.deepEqual([replay.mode, replay.source_run, replay.resumed_from, replay.ended_how], ["replay", 1, null, "signal"]);
});

test("runs show with an unknown or malformed id, and runs without an action, are usage errors", async () => {
  const root = await projectWithRuns();
  await assert.rejects(runRunsCommand(["show", "42"], { cwd: root, env: {}, out: () => undefined }), (error: Error) => {
    assert.ok(error instanceof UsageError);
    assert.match(error.message, /^no run 42 in .*aiython\.sqlite; see aiython runs list$/);
    return true;
  });
  await assert.rejects(runRunsCommand(["show", "abc"], { cwd: root, env: {}, out: () => undefined }), /run ids are whole numbers, not 'abc'/);
  await assert.rejects(runRunsCommand(["show"], { cwd: root, env: {}, out: () => undefined }), /missing required argument 'id'/);
  await assert.rejects(runRunsCommand([], { cwd: root, env: {}, out: () => undefined }), /runs needs list or show/);
  await assert.rejects(runRunsCommand(["list", "--limit", "0"], { cwd: root, env: {}, out: () => undefined }), /--limit takes a positive whole number, not '0'/);
});
