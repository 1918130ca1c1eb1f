// The journal session's writes (SPEC §11, src/observe/journal-writes.ts): a run's rows wait in
// memory and go to the database together, in one transaction, and the database is opened then,
// not at the first answer; a read in the same run and the run's end write what is pending first;
// a batch that cannot be written disables the journal with one warning, and nothing of that
// batch is kept; warming up creates nothing.

import { mock, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { JOURNAL_WRITE_DELAY_MS } from "../src/defaults.js";
import { Journal, journalPath } from "../src/journal/index.js";
import type { InvocationEntry } from "../src/journal/index.js";
import { JournalSession } from "../src/observe/journal-session.js";
import type { ExchangeToRecord } from "../src/observe/recording-model.js";
import { counters, tempProject } from "./support/journal-helpers.js";

import { END, runStart } from "./support/journal-helpers.js";

function session(root: string, warnings: string[] = []): JournalSession {
  return new JournalSession({
    projectRoot: root,
    cwd: root,
    record: true,
    replay: null,
    run: runStart(),
    command: { script: "tickets.py" },
    redact: (text) => text.replaceAll("sk-secret-1", "[redacted]"),
    warn: (m) => warnings.push(m),
  });
}

function exchange(n: number, made: number[] = []): ExchangeToRecord {
  return {
    seq: n,
    at: new Date(),
    origin: null,
    counted: null,
    stored: () => {
      made.push(n);
      return { key: `key-${n}`, block: "tickets.py:9", route: "openai/m", model: "m", requestJson: `{"n":${n},"k":"sk-secret-1"}`, responseJson: `{"answer":${n}}` };
    },
  };
}

function invocation(n: number): InvocationEntry {
  return {
    invocation: `inv-${n}`,
    file: "tickets.py",
    line: 9,
    mode: "syntax",
    status: "finished",
    action: "finish",
    missingCapability: null,
    counters: counters(),
    endedAt: new Date(),
  };
}

/** Counts the journal's transactions while `work` runs. */
async function countingTransactions<T>(work: () => Promise<T>): Promise<{ result: T; transactions: number }> {
  const original = Journal.prototype.inTransaction;
  let transactions = 0;
  Journal.prototype.inTransaction = function (this: Journal, writes: () => void) {
    transactions += 1;
    return original.call(this, writes);
  };
  try {
    return { result: await work(), transactions };
  } finally {
    Journal.prototype.inTransaction = original;
  }
}

function rows(root: string): { exchanges: { key: string; request_json: string }[]; invocations: number; ended: number } {
  const db = new Database(journalPath(root), { readonly: true });
  try {
    return {
      // request_json with the parts it shares with other requests put back (journal/request-parts.ts).
      exchanges: (db.prepare("SELECT key, request_json FROM exchanges ORDER BY key").all() as { key: string; request_json: string }[]).map((row) => ({
        ...row,
        request_json: row.request_json.replace(/\{"\$part":"([0-9a-f]{64})"\}/g, (_, hash) =>
          String(db.prepare("SELECT json FROM request_parts WHERE hash = ?").pluck().get(hash)),
        ),
      })),
      invocations: Number(db.prepare("SELECT COUNT(*) FROM invocations").pluck().get()),
      ended: Number(db.prepare("SELECT COUNT(*) FROM runs WHERE ended_at IS NOT NULL").pluck().get()),
    };
  } finally {
    db.close();
  }
}

/** Waits `ms` of real time (setTimeout may be mocked). */
async function sleep(ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) await new Promise((resolve) => setImmediate(resolve));
}

/** The rows once the session has written its batch (the open first). */
async function rowsOnceWritten(root: string): Promise<ReturnType<typeof rows>> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    await sleep(20);
    try {
      const written = rows(root);
      if (written.exchanges.length > 0) return written;
    } catch {
      // Not created yet.
    }
  }
  throw new Error("the batch was never written");
}

test("a block's exchange is worked out when it is written, the journal opens then, and a run's rows go to the database in one transaction", async () => {
  const root = tempProject();
  const made: number[] = [];
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { transactions } = await countingTransactions(async () => {
      const journal = session(root);
      for (let n = 1; n <= 3; n++) {
        journal.record(exchange(n, made));
        journal.recordInvocation(invocation(n));
      }
      await sleep(150);
      assert.deepEqual(made, [], "nothing is encoded while the program waits for its block");
      assert.equal(fs.existsSync(path.dirname(journalPath(root))), false, "nor is the journal opened then");
      mock.timers.tick(JOURNAL_WRITE_DELAY_MS); // the delay passes: the batch is written
      const written = await rowsOnceWritten(root);
      assert.deepEqual(
        written.exchanges.map((e) => e.key),
        ["key-1", "key-2", "key-3"],
      );
      assert.equal(written.invocations, 3);
      assert.match(written.exchanges[0].request_json, /\[redacted\]/);
      await journal.finish(END);
    });
    assert.deepEqual(made, [1, 2, 3]);
    assert.equal(transactions, 1, "six rows, one transaction");
    assert.equal(rows(root).ended, 1);
  } finally {
    mock.timers.reset();
  }
});

test("a read in the same run finds an exchange still pending, and the run's end writes the rest before it ends the run", async () => {
  const root = tempProject();
  const { result: found, transactions } = await countingTransactions(async () => {
    const journal = session(root);
    journal.record(exchange(1));
    const answer = (await journal.candidates("tickets.py:9")).map((request) => request.requestJson);
    journal.record(exchange(2));
    journal.recordInvocation(invocation(2));
    await journal.finish(END);
    return answer;
  });
  assert.deepEqual(found, ['{"n":1,"k":"[redacted]"}']);
  assert.equal(transactions, 2);
  const written = rows(root);
  assert.deepEqual(
    written.exchanges.map((e) => e.key),
    ["key-1", "key-2"],
  );
  assert.equal(written.invocations, 1);
  assert.equal(written.ended, 1);
});

test("a batch that cannot be written disables the journal with one warning and keeps none of its rows", async () => {
  const root = tempProject();
  const warnings: string[] = [];
  const journal = session(root, warnings);
  journal.record(exchange(1));
  journal.record({
    ...exchange(2),
    stored: () => {
      throw Object.assign(new Error("disk full"), { code: "SQLITE_FULL" });
    },
  });
  assert.deepEqual(await journal.candidates("tickets.py:9"), [], "the failed batch is rolled back");
  journal.record(exchange(3));
  await journal.finish(END);
  assert.deepEqual(warnings, ["journal disabled: writing the journal failed (SQLITE_FULL); the rest of this run is not recorded"]);
  const written = rows(root);
  assert.deepEqual(written.exchanges, []);
  assert.equal(written.ended, 0);
});

test("warming up loads SQLite and creates nothing: a run that then records nothing leaves no .aiython/", async () => {
  const root = tempProject();
  const journal = session(root);
  journal.warmUp();
  await new Promise((resolve) => setTimeout(resolve, 200));
  journal.recordInvocation(invocation(1)); // a failed invocation with no exchange: nothing to record
  await journal.finish(END);
  assert.equal(fs.existsSync(path.dirname(journalPath(root))), false);
});
