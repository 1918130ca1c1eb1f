// The journal session's writes (SPEC §11, src/observe/journal-writes.ts): a run's rows wait in
// memory and go to the database together, in one transaction; a read in the same run and the
// run's end write what is pending first; a batch that cannot be written disables the journal
// with one warning, and nothing of that batch is kept.

import { test } from "node:test";
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { Journal, journalPath } from "../src/journal/index.js";
import type { InvocationEntry } from "../src/journal/index.js";
import { JournalSession } from "../src/observe/journal-session.js";
import type { RecordedExchange } from "../src/observe/recording-model.js";
import { counters, tempProject } from "./support/journal-helpers.js";

const RUN = { script: "tickets.py", args: [], replay: false, pid: 4242, version: "0.0.0-test", startedAt: new Date("2025-01-02T03:04:05Z") };
const END = { endedAt: new Date(), status: 0, signal: null, totalSeconds: 1, parseSeconds: 0, prepareSeconds: 0, executionSeconds: 1 };

function session(root: string, warnings: string[] = []): JournalSession {
  return new JournalSession({ projectRoot: root, cwd: root, record: true, run: RUN, redact: (text) => text.replaceAll("sk-secret-1", "[redacted]"), warn: (m) => warnings.push(m) });
}

function exchange(n: number, made: number[] = []): { at: Date; stored: () => RecordedExchange } {
  return {
    at: new Date(),
    stored: () => {
      made.push(n);
      return { key: `key-${n}`, block: "tickets.py:9", route: "openai/m", model: "m", requestJson: `{"n":${n},"k":"sk-secret-1"}`, responseJson: `{"answer":${n}}` };
    },
  };
}

function invocation(n: number): InvocationEntry {
  return { invocation: `inv-${n}`, file: "tickets.py", line: 9, mode: "syntax", status: "finished", action: "finish", missingCapability: null, counters: counters(), endedAt: new Date() };
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
      exchanges: db.prepare("SELECT key, request_json FROM exchanges ORDER BY key").all() as { key: string; request_json: string }[],
      invocations: Number(db.prepare("SELECT COUNT(*) FROM invocations").pluck().get()),
      ended: Number(db.prepare("SELECT COUNT(*) FROM runs WHERE ended_at IS NOT NULL").pluck().get()),
    };
  } finally {
    db.close();
  }
}

/** The rows once the session's timer has written its batch (the open and the delay first). */
async function rowsOnceWritten(root: string): Promise<ReturnType<typeof rows>> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    try {
      const written = rows(root);
      if (written.exchanges.length > 0) return written;
    } catch {
      // Not created yet.
    }
  }
  throw new Error("the batch was never written");
}

test("a block's exchange is worked out when it is written, and a run's rows go to the database in one transaction", async () => {
  const root = tempProject();
  const made: number[] = [];
  const { transactions } = await countingTransactions(async () => {
    const journal = session(root);
    for (let n = 1; n <= 3; n++) {
      journal.recordExchange(exchange(n, made));
      journal.recordInvocation(invocation(n));
    }
    assert.deepEqual(made, [], "nothing is encoded while the program waits for its block");
    const written = await rowsOnceWritten(root); // the delay passes: the batch is written
    assert.deepEqual(written.exchanges.map((e) => e.key), ["key-1", "key-2", "key-3"]);
    assert.equal(written.invocations, 3);
    assert.match(written.exchanges[0].request_json, /\[redacted\]/);
    await journal.finish(END);
  });
  assert.deepEqual(made, [1, 2, 3]);
  assert.equal(transactions, 1, "six rows, one transaction");
  assert.equal(rows(root).ended, 1);
});

test("a lookup in the same run finds an exchange still pending, and the run's end writes the rest before it ends the run", async () => {
  const root = tempProject();
  const { result: found, transactions } = await countingTransactions(async () => {
    const journal = session(root);
    journal.recordExchange(exchange(1));
    const answer = await journal.lookup("key-1");
    journal.recordExchange(exchange(2));
    journal.recordInvocation(invocation(2));
    await journal.finish(END);
    return answer;
  });
  assert.equal(found, '{"answer":1}');
  assert.equal(transactions, 2);
  const written = rows(root);
  assert.deepEqual(written.exchanges.map((e) => e.key), ["key-1", "key-2"]);
  assert.equal(written.invocations, 1);
  assert.equal(written.ended, 1);
});

test("a batch that cannot be written disables the journal with one warning and keeps none of its rows", async () => {
  const root = tempProject();
  const warnings: string[] = [];
  const journal = session(root, warnings);
  journal.recordExchange(exchange(1));
  journal.recordExchange({ at: new Date(), stored: () => { throw Object.assign(new Error("disk full"), { code: "SQLITE_FULL" }); } });
  assert.equal(await journal.lookup("key-1"), null, "the failed batch is rolled back");
  journal.recordExchange(exchange(3));
  await journal.finish(END);
  assert.deepEqual(warnings, ["journal disabled: writing the journal failed (SQLITE_FULL); the rest of this run is not recorded"]);
  const written = rows(root);
  assert.deepEqual(written.exchanges, []);
  assert.equal(written.ended, 0);
});
