// `aiython recheck` through the built CLI (SPEC §11.3): recorded runs re-run against the current
// source under strict replay, with no key and no model server (as in CI), one line per run:
// `same` for an unchanged program (and one with a comment appended), `diverged at FILE:LINE: …`
// after an edit of a block, `exit N, recorded M` when only the exit changed; exit 1 on any
// difference. Recheck runs are journaled with mode `recheck` and are never a replay's source.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { inTurn, journalProject } from "./support/journal-e2e.js";

test("recheck: same for unchanged runs, FILE:LINE for an edited block, the exit status when only it changed, and no model called", async () => {
  const project = await journalProject(inTurn(["apple", "banana", "bug", "billing"]));
  try {
    for (const script of ["fruit.py", "module_blocks.py"]) assert.equal((await project.run([script])).exitCode, 0);
    const sent = project.sent().length;
    // CI: the model named as when it was recorded, but no key and nothing listening.
    const recheck = () => aiython(["recheck"], { cwd: project.root, env: cleanEnv({ AIYTHON_MODEL: "loop", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }) });
    const same = await recheck();
    assert.deepEqual([same.exitCode, same.stdout, same.stderr], [0, "run 2 module_blocks.py: same\nrun 1 fruit.py: same\n", ""]);

    const file = path.join(project.root, "module_blocks.py");
    fs.appendFileSync(file, "# a comment appended later\n");
    assert.equal((await recheck()).stdout, "run 2 module_blocks.py: same\nrun 1 fruit.py: same\n", "an appended comment changes no request");

    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("classify the second ticket", "classify the last ticket"));
    fs.appendFileSync(path.join(project.root, "fruit.py"), "raise SystemExit(3)\n");
    const changed = await recheck();
    assert.equal(changed.exitCode, 1);
    assert.equal(
      changed.stdout,
      'run 2 module_blocks.py: diverged at module_blocks.py:5: statement: recorded "classify the second ticket as bug or billing", now "classify the last ticket as bug or billing"; the block: the code around it, its position in the file\n' +
        "run 1 fruit.py: exit 3, recorded 0\n",
    );
    assert.equal(changed.stderr, "");
    assert.equal(project.sent().length, sent, "recheck called no model");

    const modes = project.query<{ mode: string; source_run: number }>("SELECT mode, source_run FROM runs WHERE id > 2 ORDER BY id");
    assert.equal(modes.length, 6);
    assert.ok(modes.every((run) => run.mode === "recheck" && [1, 2].includes(run.source_run)));
    const one = await project.run(["recheck", "1"]);
    assert.deepEqual([one.exitCode, one.stdout], [1, "run 1 fruit.py: exit 3, recorded 0\n"], "a run named, rechecked alone");
    fs.rmSync(path.join(project.root, "fruit.py"));
    const gone = await project.run(["recheck", "1", "2"]);
    assert.equal(gone.exitCode, 1);
    assert.match(gone.stdout, /^run 1 fruit\.py: cannot recheck: can't open file '.*fruit\.py': No such file or directory\nrun 2 module_blocks\.py: diverged at /);
  } finally {
    await project.close();
  }
});

test("recheck without recorded runs, or of a run that does not exist, is a usage error", async () => {
  const project = await journalProject(inTurn([]));
  try {
    const none = await project.run(["recheck"]);
    assert.deepEqual([none.exitCode, none.stdout], [2, ""]);
    assert.match(none.stderr, /^aiython: there is no journal here, so no recorded run to recheck/);
    await project.run(["fruit.py"]);
    const missing = await project.run(["recheck", "9"]);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /^aiython: no run 9 in .*aiython\.sqlite; see aiython runs list\n$/);
    const bad = await project.run(["recheck", "--last", "0"]);
    assert.deepEqual([bad.exitCode, bad.stderr], [2, "aiython: --last takes a positive whole number, not '0': aiython recheck [RUN_ID...] [--last N]\n"]);
  } finally {
    await project.close();
  }
});
