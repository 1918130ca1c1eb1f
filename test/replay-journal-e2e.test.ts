// The journal as a cassette through the built CLI (SPEC §11, §11.1): after a module-level block is
// appended to a script, `--replay=fill` sends that block's request only (the code context of a
// module-level block ends with its own statement); a damaged answer row is a miss with a message
// (exit 1 from the program's AIError, never 70) that fill asks again; a journal in a folder that
// cannot be written is still replayed, listed and rechecked, with one line saying nothing is
// recorded.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { makeUnwritable } from "./support/journal-helpers.js";
import { blockOf, inTurn, journalProject } from "./support/journal-e2e.js";

test("--replay=fill after appending a module-level block sends that block's request only", async () => {
  const project = await journalProject(inTurn(["bug", "billing", "both", "?"]));
  try {
    const recorded = await project.run(["module_blocks.py"]);
    assert.deepEqual([recorded.exitCode, recorded.stdout], [0, "bug\nbilling\n"]);
    const file = path.join(project.root, "module_blocks.py");
    fs.appendFileSync(file, "# and now a summary\ndef unused():\n    return 0\n\n\nsummary: str = name what both tickets are about in one word\nprint(summary)\n");
    const filled = await project.run(["--replay=fill", "module_blocks.py"]);
    assert.deepEqual([filled.exitCode, filled.stdout, filled.stderr], [0, "bug\nbilling\nboth\n", ""]);
    assert.deepEqual(project.sent().map(blockOf), ["module_blocks.py:3", "module_blocks.py:5", "module_blocks.py:12"]);
    const replayed = await project.run(["--replay", "module_blocks.py"]);
    assert.deepEqual([replayed.exitCode, replayed.stdout], [0, "bug\nbilling\nboth\n"]);
    assert.equal(project.sent().length, 3);
  } finally {
    await project.close();
  }
});

test("a damaged answer is a miss that says so, never an internal error; fill asks again; runs show reads a damaged row", async () => {
  const project = await journalProject(inTurn(["apple", "banana", "cherry"]));
  try {
    assert.equal((await project.run(["fruit.py"])).stdout, "apple banana\n");
    const db = new Database(path.join(project.root, ".aiython", "aiython.sqlite"));
    db.prepare("UPDATE exchanges SET response_json = '{\"message\": 7' WHERE occurrence = 2").run();
    db.prepare("UPDATE invocations SET tool_counts = 'not json', unpriced_routes = '[' WHERE invocation = 'inv-2'").run();
    db.close();
    const replayed = await project.run(["--replay", "fruit.py"]);
    assert.equal(replayed.exitCode, 1, replayed.stderr);
    assert.equal(replayed.stdout, "");
    assert.match(
      replayed.stderr,
      /AIError: --replay: the recorded answer for fruit\.py:3 \(run 1\) is damaged \(not an answer aiython wrote\); run with --replay=fill to ask again and record it\n$/,
    );
    const filled = await project.run(["--replay=fill", "fruit.py"]);
    assert.deepEqual([filled.exitCode, filled.stdout], [0, "apple cherry\n"]);
    const shown = await project.run(["runs", "show", "1"]);
    assert.equal(shown.exitCode, 0, shown.stderr);
    assert.match(shown.stdout, /\n {2}fruit\.py:3\s+syntax\s+finished\s+1\s+0\s+1\s/);
    assert.equal((await project.run(["runs", "list"])).exitCode, 0);
  } finally {
    await project.close();
  }
});

test("a journal in a folder that cannot be written is replayed, listed and rechecked; the replay says it is not recorded", async (t) => {
  const project = await journalProject(inTurn(["apple", "banana"]));
  const folder = path.join(project.root, ".aiython");
  let undo: (() => void) | null = null;
  let before: Buffer | null = null;
  try {
    assert.equal((await project.run(["fruit.py"])).stdout, "apple banana\n");
    before = fs.readFileSync(path.join(folder, "aiython.sqlite"));
    undo = makeUnwritable(folder);
    if (!undo) return t.skip("cannot make a folder unwritable here");
    const notice = "aiython: this run is not recorded: .aiython/aiython.sqlite cannot be opened for writing (SQLITE_CANTOPEN); it is replayed from the journal as it is\n";
    const replayed = await project.run(["--replay", "fruit.py"]);
    assert.deepEqual([replayed.exitCode, replayed.stdout, replayed.stderr], [0, "apple banana\n", notice]);
    const listed = await project.run(["runs", "list", "--json"]);
    assert.deepEqual([listed.exitCode, JSON.parse(listed.stdout).length, listed.stderr], [0, 1, ""]);
    const rechecked = await project.run(["recheck"]);
    assert.deepEqual([rechecked.exitCode, rechecked.stdout, rechecked.stderr], [0, "run 1 fruit.py: same\n", notice]);
    assert.equal(project.sent().length, 2);
  } finally {
    undo?.();
    await project.close();
  }
  assert.deepEqual(fs.readFileSync(path.join(folder, "aiython.sqlite")), before, "the journal is as the recorded run left it");
});
