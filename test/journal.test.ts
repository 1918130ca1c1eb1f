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
import { counters, makeUnwritable, tempProject } from "./support/journal-helpers.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

function runStart(args: string[] = []) {
  return { script: "tickets.py", args, replay: false, pid: 4242, version: "0.0.0-test", startedAt: new Date("2025-01-02T03:04:05Z") };
}

test("a new journal is .aiython/aiython.sqlite: folder 0700, file 0600, WAL, current schema, kept out of git", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  journal.startRun(runStart());
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
  const id = first.startRun(runStart());
  first.close();
  const second = await openJournal({ projectRoot: root, create: true });
  assert.equal(second.getRun(id)?.script, "tickets.py");
  assert.equal(second.listRuns(10).length, 1);
  second.close();
});

test("an existing journal readable by others is made owner-only", async () => {
  const root = tempProject();
  (await openJournal({ projectRoot: root, create: true })).close();
  fs.chmodSync(journalPath(root), 0o644);
  (await openJournal({ projectRoot: root, create: true })).close();
  assert.equal(fs.statSync(journalPath(root)).mode & 0o777, 0o600);
});

test("runs and invocations round-trip; the arguments are kept only as a hash", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const args = ["--customer", "ACME-SECRET-ARGUMENT-31337"];
  const id = journal.startRun(runStart(args));
  journal.addInvocation(id, {
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
  journal.addInvocation(id, {
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
  journal.endRun(id, { endedAt: new Date(), status: 3, signal: null, totalSeconds: 1.5, parseSeconds: 0.1, prepareSeconds: 0.2, executionSeconds: 1.2 });
  const run = journal.getRun(id)!;
  assert.equal(run.exitStatus, 3);
  assert.equal(run.invocations, 2);
  assert.equal(run.modelCalls, 3);
  assert.equal(run.toolCalls, 4);
  assert.equal(run.totalTokens, 1840);
  assert.equal(run.executionSeconds, 1.2);
  const invocations = journal.invocationsOf(id);
  assert.deepEqual(
    invocations.map((inv) => [inv.invocation, inv.line, inv.mode, inv.status, inv.missingCapability]),
    [
      ["inv-1", 15, "syntax", "finished", null],
      ["inv-2", 18, "recovery", "failed", "vision"],
    ],
  );
  assert.deepEqual(invocations[0].counters.tool_counts, { evaluate: 2, finish: 1 });
  journal.close();
  const bytes = Buffer.concat([journalPath(root), `${journalPath(root)}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
  assert.equal(bytes.includes("ACME-SECRET-ARGUMENT-31337"), false, "an argument reached the journal");
  const raw = new Database(journalPath(root), { readonly: true });
  assert.match(String(raw.prepare("SELECT args_sha256 FROM runs").pluck().get()), /^[0-9a-f]{64}$/);
  raw.close();
});

test("exchanges are found by key, and a new recording of the same request replaces the old one", async () => {
  const root = tempProject();
  const journal = await openJournal({ projectRoot: root, create: true });
  const requestJson = exchangeRequestJson({ route: "openai/m", model: "m", messages: [{ role: "user", content: "hi" }], tools: [], parameters: { tool_choice: "required" } });
  const key = exchangeKey(requestJson);
  assert.equal(journal.findExchange(key), null);
  journal.putExchange(null, { key, route: "openai/m", model: "m", requestJson, responseJson: '{"n":1}' }, new Date());
  journal.putExchange(null, { key, route: "openai/m", model: "m", requestJson, responseJson: '{"n":2}' }, new Date());
  assert.equal(journal.findExchange(key)?.responseJson, '{"n":2}');
  journal.close();
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
