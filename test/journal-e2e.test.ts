// The journal end to end (SPEC §11): runs of examples/tickets.py record runs, invocations and
// exchanges; two runs at once lose nothing; `aiython runs list|show` read it back; a read-only or
// corrupt journal is one warning and never costs the program its output; --no-journal and
// `journal = false` record nothing; a run without a model never creates it; no file holds the key.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { filesUnder, makeUnwritable } from "./support/journal-helpers.js";
import { aiythonLines, FAKE_KEY, modelEnv, runIn, standIn, TICKETS_STDOUT, ticketsProject } from "./support/observe-e2e.js";

const journalOf = (root: string) => path.join(root, ".aiython", "aiython.sqlite");

test("two concurrent runs record every run, invocation and exchange; runs list and show read them", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const runs = await Promise.all([1, 2].map(() => runIn(root, ["tickets.py", "--secret-arg", FAKE_KEY], modelEnv(model.url))));
    for (const ran of runs) {
      assert.equal(ran.exitCode, 0, ran.stderr);
      assert.equal(ran.stdout, TICKETS_STDOUT);
      assert.equal(ran.stderr, "");
    }
    const db = new Database(journalOf(root), { readonly: true });
    try {
      assert.equal(db.prepare("SELECT COUNT(*) FROM runs WHERE ended_at IS NOT NULL AND exit_status = 0").pluck().get(), 2);
      assert.equal(db.prepare("SELECT COUNT(*) FROM invocations").pluck().get(), 10);
      assert.deepEqual(db.prepare("SELECT DISTINCT file || ':' || line FROM invocations ORDER BY 1").pluck().all(), ["tickets.py:14", "tickets.py:17"]);
      assert.equal(db.prepare("SELECT COUNT(*) FROM exchanges").pluck().get(), 10, "each run keeps its own answers");
      assert.equal(db.prepare("SELECT COUNT(DISTINCT key) FROM exchanges").pluck().get(), 5, "the same requests have the same keys in both runs");
      assert.deepEqual(db.prepare("SELECT DISTINCT arg_count FROM runs").pluck().all(), [2]);
    } finally {
      db.close();
    }
    for (const file of filesUnder(path.join(root, ".aiython"))) {
      assert.equal(fs.readFileSync(file).includes(FAKE_KEY), false, `${file} holds the API key (an argument)`);
    }

    const list = await runIn(root, ["runs", "list"], modelEnv(model.url));
    assert.equal(list.exitCode, 0, list.stderr);
    const rows = list.stdout.trimEnd().split("\n");
    assert.match(rows[0], /^ {2}id\s+started\s+script\s+exit\s+invocations\s+model calls\s+replayed\s+cost$/);
    assert.equal(rows.length, 3);
    // The stand-in model has no price: its cost is unknown, not zero.
    for (const row of rows.slice(1)) assert.match(row, /^ {2}[12]\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+tickets\.py\s+0\s+5\s+5\s+0\s+unknown$/);

    const show = await runIn(root, ["runs", "show", "1"], modelEnv(model.url));
    assert.equal(show.exitCode, 0, show.stderr);
    assert.match(show.stdout, /^run 1: tickets\.py\n/);
    assert.match(show.stdout, /5 AI invocations, 5 model calls, 5 tool calls, [\d.]+ KB sent, 0 tokens, cost unknown \(no price for stand-in\)\n/);
    assert.equal(show.stdout.match(/^ {2}tickets\.py:1[47]\s+syntax\s+finished\s+1\s+0\s+1\s/gm)?.length, 5);

    const missing = await runIn(root, ["runs", "show", "99"], modelEnv(model.url));
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /^aiython: no run 99 in .*aiython\.sqlite; see aiython runs list\n$/);
  } finally {
    await model.close();
  }
});

test("a read-only journal folder: the run succeeds with exactly one warning line", async (t) => {
  const root = ticketsProject();
  const dir = path.join(root, ".aiython");
  fs.mkdirSync(dir);
  const undo = makeUnwritable(dir);
  if (!undo) return t.skip("cannot make a folder unwritable here");
  const model = await standIn();
  try {
    const ran = await runIn(root, ["tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, TICKETS_STDOUT);
    assert.equal(ran.stderr.split("\n").filter(Boolean).length, 1, ran.stderr);
    assert.match(
      ran.stderr,
      /^aiython: journal disabled: cannot create \.aiython\/aiython\.sqlite: (permission denied|operation not permitted); check the folder's permissions or run with --no-journal\n$/,
    );
  } finally {
    undo();
    await model.close();
  }
});

test("a corrupt journal: the run succeeds with one warning, and stats still print", async () => {
  const root = ticketsProject();
  fs.mkdirSync(path.join(root, ".aiython"), { mode: 0o700 });
  fs.writeFileSync(journalOf(root), "not sqlite ".repeat(500), { mode: 0o600 });
  const model = await standIn();
  try {
    const ran = await runIn(root, ["--stats=json", "tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(ran.stdout, TICKETS_STDOUT);
    const lines = aiythonLines(ran.stderr);
    assert.equal(lines.length, 2, ran.stderr);
    assert.equal(
      lines[0],
      "aiython: journal disabled: .aiython/aiython.sqlite is not a readable SQLite database (SQLITE_NOTADB); move it away and the next run starts a new journal",
    );
    assert.equal(JSON.parse(lines[1].slice("aiython stats: ".length)).invocations.length, 5);
  } finally {
    await model.close();
  }
});

test("--no-journal and journal = false record nothing; no model, no journal", async () => {
  const model = await standIn();
  try {
    const flagged = ticketsProject();
    const ran = await runIn(flagged, ["--no-journal", "tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(fs.existsSync(journalOf(flagged)), false); // .aiython/cache may hold the prepared program (SPEC §4.1)

    const configured = ticketsProject();
    fs.writeFileSync(path.join(configured, "aiython.toml"), `version = 3\nmodel = "stand-in"\napi_base = "${model.url}"\njournal = false\n`);
    const quiet = await runIn(configured, ["tickets.py"], modelEnv(model.url, { AIYTHON_MODEL: "" }));
    assert.equal(quiet.exitCode, 0, quiet.stderr);
    assert.equal(quiet.stdout, TICKETS_STDOUT);
    assert.equal(fs.existsSync(journalOf(configured)), false);

    const plain = ticketsProject();
    const valid = await runIn(plain, ["-c", "print('no model')"], modelEnv(model.url, { AIYTHON_MODEL: "" }));
    assert.equal(valid.stdout, "no model\n");
    assert.equal(fs.existsSync(path.join(plain, ".aiython")), false);
  } finally {
    await model.close();
  }
});

test("runs list in a project without a journal says so", async () => {
  const root = ticketsProject();
  const ran = await runIn(root, ["runs", "list"], modelEnv("http://127.0.0.1:9/v1"));
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(
    ran.stdout,
    /^no runs recorded yet \(no journal at .*\.aiython\/aiython\.sqlite; runs are recorded when a model is configured, next to the script's aiython\.toml or else in the script's folder: run this there\)\n$/,
  );
  assert.equal(fs.existsSync(path.join(root, ".aiython")), false);
});

test("runs list without an aiython.toml finds the nearest journal above the working folder, as discovery does", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const ran = await runIn(root, ["tickets.py"], modelEnv(model.url));
    assert.equal(ran.exitCode, 0, ran.stderr);
  } finally {
    await model.close();
  }
  const below = path.join(root, "sub", "deeper");
  fs.mkdirSync(below, { recursive: true });
  const listed = await runIn(below, ["runs", "list", "--json"], modelEnv("http://127.0.0.1:9/v1"));
  assert.equal(listed.exitCode, 0, listed.stderr);
  assert.equal(JSON.parse(listed.stdout).length, 1);
});
