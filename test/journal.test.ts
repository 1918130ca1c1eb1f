// The journal store (SPEC §11): where and how it is created (modes, WAL, schema version), what it
// keeps and refuses to keep, how it fails (garbage file, unwritable folder, newer schema), and
// that two processes writing at once lose no rows.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { exchangeKey, exchangeRequestJson, journalPath, JournalUnavailableError, openJournal, SCHEMA_VERSION } from "../src/journal/index.js";
import { counters, END, makeUnwritable, runStart, tempProject } from "./support/journal-helpers.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

test("a new journal is .aiython/aiython.sqlite: folder 0700, file 0600, WAL, current schema, kept out of git", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  journal.runs.start(runStart());
  const file = journalPath(root);
  assert.equal(file, path.join(root, ".aiython", "aiython.sqlite"));
  assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  for (const side of ["-wal", "-shm"]) {
    if (fs.existsSync(file + side)) assert.equal(fs.statSync(file + side).mode & 0o777, 0o600, `${side} file mode`);
  }
  assert.match(fs.readFileSync(path.join(root, ".aiython", ".gitignore"), "utf8"), /^\*$/m);
  journal.close();
  const raw = new Database(file, { readonly: true });
  assert.equal(raw.pragma("journal_mode", { simple: true }), "wal");
  assert.equal(raw.pragma("user_version", { simple: true }), SCHEMA_VERSION);
  raw.close();
});

test("reopening keeps the rows and does not migrate twice", async () => {
  const root = tempProject();
  const first = await openJournal({ projectRoot: root, create: true });
  const id = first.runs.start(runStart());
  first.close();
  const second = await openJournal({ projectRoot: root, create: true });
  assert.equal(second.reads.get(id)?.script, "tickets.py");
  assert.equal(second.reads.list(10).length, 1);
  second.close();
});

test("an existing journal readable by others is made owner-only", async () => {
  const root = tempProject();
  (await openJournal({ projectRoot: root, create: true })).close();
  fs.chmodSync(journalPath(root), 0o644);
  (await openJournal({ projectRoot: root, create: true })).close();
  assert.equal(fs.statSync(journalPath(root)).mode & 0o777, 0o600);
});

test("runs and invocations round-trip, with the run's command line, folder, interpreter and profile", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const args = ["--customer", "ACME"];
  const id = journal.runs.start(runStart({ args, argv: ["--stats", "tickets.py", ...args], cwd: "sub" }));
  journal.runs.addInvocation(id, {
    invocation: "inv-1",
    file: "tickets.py",
    line: 15,
    mode: "syntax",
    status: "finished",
    action: null,
    missingCapability: null,
    counters: counters({ tool_counts: { evaluate: 2, finish: 1 }, tool_calls: 3 }),
    endedAt: new Date(),
  });
  journal.runs.addInvocation(id, {
    invocation: "inv-2",
    file: "tickets.py",
    line: 18,
    mode: "recovery",
    status: "failed",
    action: null,
    missingCapability: "vision",
    counters: counters({ model_calls: 2 }),
    endedAt: new Date(),
  });
  journal.runs.addFiles(id, [{ path: "tickets.py", sha256: "a".repeat(64) }]);
  journal.runs.end(id, { ...END, status: 3, totalSeconds: 1.5, executionSeconds: 1.2 });
  const run = journal.reads.record(id)!;
  assert.equal(run.exitStatus, 3);
  assert.equal(run.ended_how, "exit");
  assert.equal(run.invocations, 2);
  assert.equal(run.modelCalls, 3);
  assert.equal(run.toolCalls, 4);
  assert.equal(run.totalTokens, 1840);
  assert.equal(run.executionSeconds, 1.2);
  assert.deepEqual(run.command_line, ["--stats", "tickets.py", "--customer", "ACME"]);
  assert.deepEqual([run.mode, run.cwd, run.interpreter?.version, run.profile?.route], ["record", "sub", "3.11.7", "openai/m"]);
  assert.deepEqual(run.files, [{ path: "tickets.py", sha256: "a".repeat(64) }]);
  const invocations = journal.reads.invocationsOf(id);
  assert.deepEqual(
    invocations.map((inv) => [inv.invocation, inv.line, inv.mode, inv.status, inv.missingCapability]),
    [
      ["inv-1", 15, "syntax", "finished", null],
      ["inv-2", 18, "recovery", "failed", "vision"],
    ],
  );
  assert.deepEqual(invocations[0].counters.tool_counts, { evaluate: 2, finish: 1 });
  journal.close();
  const raw = new Database(journalPath(root), { readonly: true });
  assert.match(String(raw.prepare("SELECT args_sha256 FROM runs").pluck().get()), /^[0-9a-f]{64}$/);
  raw.close();
});

test("a request asked twice is two exchanges, each found by its occurrence; nothing recorded is replaced", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const requestJson = exchangeRequestJson({ route: "openai/m", model: "m", messages: [{ role: "user", content: "hi" }], tools: [], parameters: { tool_choice: "required" } });
  const key = exchangeKey(requestJson);
  const exchange = (seq: number, occurrence: number, n: number) => ({
    seq,
    key,
    occurrence,
    invocation: "inv-1",
    round: seq,
    block: "tickets.py:9",
    route: "openai/m",
    model: "m",
    answer: { requestJson, responseJson: `{"n":${n}}` },
  });
  const first = journal.runs.start(runStart());
  assert.equal(journal.exchanges.find(key, 1, first, null), null);
  journal.exchanges.add(first, exchange(1, 1, 1), new Date());
  journal.exchanges.add(first, exchange(2, 2, 2), new Date());
  const second = journal.runs.start(runStart());
  journal.exchanges.add(second, exchange(1, 1, 3), new Date());
  assert.throws(() => journal.exchanges.add(second, exchange(2, 1, 4), new Date()), /UNIQUE/, "one answer per occurrence and run");
  assert.deepEqual(
    [1, 2].map((n) => journal.exchanges.find(key, n, first, null)?.responseJson),
    ['{"n":1}', '{"n":2}'],
  );
  assert.equal(journal.exchanges.find(key, 1, second, null)?.responseJson, '{"n":3}');
  assert.equal(journal.exchanges.find(key, 2, second, null)?.runId, first, "past the source's occurrences: another run's");
  journal.close();
});

test("the parts requests share are stored once; a block's recorded requests read back exactly as they were asked", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const tools = [{ type: "function", function: { name: "finish", description: "End the block. ".repeat(40), parameters: { type: "object" } } }];
  const system = { role: "system", content: "You are the runtime. ".repeat(40) };
  const requests = [1, 2, 3].map((i) =>
    exchangeRequestJson({ route: "openai/m", model: "m", messages: [system, { role: "user", content: `{"i":${i}}` }], tools, parameters: { tool_choice: "required" } }),
  );
  const run = journal.runs.start(runStart());
  for (const [i, requestJson] of requests.entries()) {
    const entry = { seq: i + 1, key: exchangeKey(requestJson), occurrence: 1, invocation: `inv-${i}`, round: 1, block: "tickets.py:9", route: "openai/m", model: "m" };
    journal.exchanges.add(run, { ...entry, answer: { requestJson, responseJson: "{}" } }, new Date());
  }
  assert.deepEqual(
    journal.exchanges.requestsOfBlock("tickets.py:9", 10).map((r) => r.requestJson),
    [...requests].reverse(),
  );
  journal.close();
  const raw = new Database(journalPath(root), { readonly: true });
  const stored = raw.prepare("SELECT request_json FROM exchanges").pluck().all() as string[];
  assert.equal(raw.prepare("SELECT COUNT(*) FROM request_parts").pluck().get(), 2, "the system prompt and the tools, once each");
  assert.ok(stored.every((text, i) => text.length < requests[i].length / 3 && !text.includes("End the block.")));
  raw.close();
});

test("exchange keys ignore key order and change with any part of the request", () => {
  const base = { route: "openai/m", model: "m", messages: [{ role: "user", content: "x" }], tools: [{ a: 1, b: 2 }], parameters: { tool_choice: "required" } };
  const key = (value: typeof base) => exchangeKey(exchangeRequestJson(value));
  assert.equal(key(base), key({ ...base, tools: [{ b: 2, a: 1 } as { a: number; b: number }] }));
  assert.notEqual(key(base), key({ ...base, route: "openai/n" }));
  assert.notEqual(key(base), key({ ...base, model: "n" }));
  assert.notEqual(key(base), key({ ...base, messages: [{ role: "user", content: "y" }] }));
  assert.notEqual(key(base), key({ ...base, parameters: { tool_choice: "auto" } }));
});

test("a garbage file is reported as not a database, with what to do", async () => {
  const root = tempProject();
  fs.mkdirSync(path.join(root, ".aiython"), { mode: 0o700 });
  fs.writeFileSync(journalPath(root), "this is not a database at all, just text ".repeat(200), { mode: 0o600 });
  await assert.rejects(openJournal({ projectRoot: root, create: true }), (error: Error) => {
    assert.ok(error instanceof JournalUnavailableError);
    assert.match(error.message, /aiython\.sqlite is not a readable SQLite database \(SQLITE_NOTADB\); move it away/);
    return true;
  });
});

test("an unwritable .aiython folder is reported with the fix", async (t) => {
  const root = tempProject();
  const dir = path.join(root, ".aiython");
  fs.mkdirSync(dir);
  const undo = makeUnwritable(dir);
  if (!undo) return t.skip("cannot make a folder unwritable here");
  try {
    await assert.rejects(openJournal({ projectRoot: root, create: true }), (error: Error) => {
      assert.ok(error instanceof JournalUnavailableError);
      assert.match(error.message, /cannot create .*aiython\.sqlite: (permission denied|operation not permitted); .*--no-journal/);
      return true;
    });
  } finally {
    undo();
  }
});

test("a journal from a newer aiython is refused, not rewritten", async () => {
  const root = tempProject();
  (await openJournal({ projectRoot: root, create: true })).close();
  const raw = new Database(journalPath(root));
  raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  raw.close();
  await assert.rejects(openJournal({ projectRoot: root, create: true }), /written by a newer aiython/);
  const again = new Database(journalPath(root), { readonly: true });
  assert.equal(again.pragma("user_version", { simple: true }), SCHEMA_VERSION + 1);
  again.close();
});

test("readers do not create a journal", async () => {
  const root = tempProject();
  assert.equal(await openJournal({ projectRoot: root, create: false }), null);
  assert.equal(fs.existsSync(path.join(root, ".aiython")), false);
});

test("two processes writing one new journal at once lose no rows", async () => {
  const root = tempProject();
  const writer = path.join(HERE, "support", "journal-writer.ts");
  const perProcess = 150;
  const start = String(Date.now() + 1500);
  const children = ["a", "b"].map(
    (tag) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", writer, root, tag, String(perProcess), start], { stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`writer ${tag} exited ${code}: ${stderr}`))));
      }),
  );
  await Promise.all(children);
  const raw = new Database(journalPath(root), { readonly: true });
  for (const tag of ["a", "b"]) {
    assert.equal(raw.prepare("SELECT COUNT(*) FROM runs WHERE script = ?").pluck().get(`writer-${tag}.py`), perProcess);
    assert.equal(raw.prepare("SELECT COUNT(*) FROM invocations i JOIN runs r ON r.id = i.run_id WHERE r.script = ?").pluck().get(`writer-${tag}.py`), perProcess * 2);
    assert.equal(raw.prepare("SELECT COUNT(*) FROM runs WHERE script = ? AND ended_at IS NOT NULL").pluck().get(`writer-${tag}.py`), perProcess);
  }
  raw.close();
});
