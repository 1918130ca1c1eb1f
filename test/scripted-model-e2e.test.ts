// The scripted model end to end through the built CLI: a user's pytest suite over a project with
// AI blocks (examples/support_desk) passes offline against `script:` rules, and fails with the
// request, its place and the nearest rule when a rule is missing; a route `model = "script:PATH"`
// in aiython.toml answers a recovery; a fault in a rules file stops the run before it starts
// (exit 78) naming the file, the rule and the fix.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const DESK = path.join(ROOT, "examples", "support_desk");

function deskCopy(): string {
  return tempProject({
    "desk.py": { copy: path.join(DESK, "desk.py") },
    "tests/test_desk.py": { copy: path.join(DESK, "tests", "test_desk.py") },
    "tests/rules.toml": { copy: path.join(DESK, "tests", "rules.toml") },
  });
}

const pytest = (cwd: string) => aiython(["-m", "pytest", "-q", "-p", "no:cacheprovider"], { cwd, env: cleanEnv({ AIYTHON_MODEL: "script:tests/rules.toml" }), timeout: 120_000 });

test("a pytest suite over AI blocks passes offline against script: rules", async () => {
  const ran = await pytest(deskCopy());
  assert.equal(ran.exitCode, 0, ran.stdout + ran.stderr);
  assert.match(ran.stdout, /4 passed/);
});

test("with a rule missing, the test fails naming the block, its line and the nearest rule", async () => {
  const dir = deskCopy();
  const rules = path.join(dir, "tests", "rules.toml");
  fs.writeFileSync(rules, fs.readFileSync(rules, "utf8").replace(/\[\[rule\]\]\nname = "other tickets"[^[]*/, ""));
  const ran = await pytest(dir);
  assert.equal(ran.exitCode, 1);
  assert.match(ran.stdout, /1 failed, 3 passed/);
  assert.match(
    ran.stdout,
    /AIError: no rule of tests\/rules\.toml answers the block "classify the ticket as a bug report or a billing question" at desk\.py:9; the nearest is rule 1 \("billing tickets"\), which wants related ticket matching refund; add a \[\[rule\]\] for it to tests\/rules\.toml/,
  );
});

test('a route model = "script:PATH" in aiython.toml answers a recovery, which says what it changed', async () => {
  const dir = tempProject({
    "aiython.toml": `version = 3\nmodel = "script:rules/recover.toml"\n`,
    "rules/recover.toml": `[[rule]]\nname = "missing price"\nexception = "KeyError"\nat = "shop.py:2"\nliteral = 0.0\n`,
    "shop.py": `prices = {"tea": 3.5}\ncoffee = prices["coffee"]\nprint(repr(coffee))\n`,
  });
  const ran = await aiython(["shop.py"], { cwd: dir });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, "0.0\n");
  assert.match(ran.stderr, /shop\.py:2: KeyError recovered: completed with a value for coffee \(model: "rule 1 \("missing price"\) of rules\/recover\.toml"\)/);
});

test("a fault in the rules file stops the run before it starts, naming the file, the rule and the fix", async () => {
  const dir = tempProject({ "rules.toml": `[[rule]]\nname = "x"\nstatement = "a"\nliteral = 1\nexpression = "2"\n`, "main.py": `print("never")\n` });
  const ran = await aiython(["main.py"], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "script:rules.toml" }) });
  assert.equal(ran.exitCode, 78);
  assert.equal(ran.stdout, "");
  assert.equal(ran.stderr, `aiython: rules.toml: rule 1 ("x"): give either literal or expression, not both\n`);
});
