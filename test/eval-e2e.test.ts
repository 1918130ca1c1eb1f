// `aiython eval` end to end through the built CLI, over a copy of examples/ (its eval.toml, its
// check file, the scripted model of examples/rules.toml) with one deliberately flaky rule: the
// summary of tickets.py is a sequence whose third answer differs. Five runs report that block
// flaky and every other block stable, tickets.py passing 4 of 5 (pass^1 0.8, pass^5 0) and the
// others 5 of 5; the exit status says not every run passed; `--replay` reproduces the report
// offline from the journal. parallel.py is left out of the copy (100 worker processes on a
// 2-core machine); test/scripted-model-e2e.test.ts covers the scripted model itself.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const EXAMPLES = path.join(ROOT, "examples");
const PROGRAMS = ["tickets.py", "statement_block.py", "typed_results.py", "recovery.py"];

function examplesCopy(): string {
  const files: Record<string, { copy: string } | string> = { "checks/typed_results.py": { copy: path.join(EXAMPLES, "checks", "typed_results.py") } };
  for (const name of PROGRAMS) files[name] = { copy: path.join(EXAMPLES, name) };
  const manifest = fs.readFileSync(path.join(EXAMPLES, "eval.toml"), "utf8");
  files["eval.toml"] = manifest.replace(/\[\[program\]\]\nfile = "parallel\.py"[^[]*$/, "");
  const summary = `expression = "f\\"{len(queues['billing'])} billing tickets and {len(queues['bug'])} bug reports were routed.\\""`;
  const rules = fs.readFileSync(path.join(EXAMPLES, "rules.toml"), "utf8");
  assert.ok(rules.includes(summary), "examples/rules.toml answers the summary with this expression");
  const flaky = `sequence = [{ ${summary.replace(/^expression = /, "expression = ")} }, { ${summary} }, { literal = "Some tickets." }]`;
  files["rules.toml"] = rules.replace(summary, flaky);
  return tempProject(files);
}

interface Report {
  programs: {
    program: string;
    runs: number;
    passed: number;
    pass_k: number[];
    exit_statuses: Record<string, number>;
    tokens: number;
    blocks: { block: string; verdict: string; answers: { answer: string; count: number }[] }[];
    run_ids: (number | null)[];
  }[];
  summary: { runs: number; passed: number; flaky_blocks: number; stable_blocks: number };
}

const evalRun = (dir: string, ...args: string[]) =>
  aiython(["eval", ".", "--repeat", "5", ...args], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "script:rules.toml" }), timeout: 300_000 });

test("eval --repeat 5 over the examples reports the flaky rule's block flaky, the others stable, and pass^k per program; --replay reproduces it", async () => {
  const dir = examplesCopy();
  const ran = await evalRun(dir, "--json");
  assert.equal(ran.exitCode, 1, ran.stderr);
  const report = JSON.parse(ran.stdout) as Report;
  const byName = new Map(report.programs.map((p) => [p.program, p]));
  assert.deepEqual([...byName.keys()], PROGRAMS);
  const tickets = byName.get("tickets.py")!;
  assert.equal(tickets.passed, 4);
  assert.deepEqual(
    tickets.pass_k.map((p) => Number(p.toFixed(2))),
    [0.8, 0.6, 0.4, 0.2, 0],
  );
  const verdicts = report.programs.flatMap((p) => p.blocks.map((b) => `${b.block} ${b.verdict}`));
  assert.deepEqual(verdicts, ["tickets.py:14 stable", "tickets.py:17 flaky", "statement_block.py:10 stable", "typed_results.py:28 stable", "recovery.py:18 stable"]);
  const summary = tickets.blocks.find((b) => b.block === "tickets.py:17")!;
  assert.deepEqual(
    summary.answers.map((a) => a.count),
    [4, 1],
  );
  assert.equal(summary.answers[1].answer, 'literal "Some tickets."');
  for (const name of PROGRAMS.slice(1)) {
    assert.equal(byName.get(name)!.passed, 5, name);
    assert.deepEqual(byName.get(name)!.pass_k, [1, 1, 1, 1, 1], name);
    assert.deepEqual(byName.get(name)!.exit_statuses, { "0": 5 }, name);
  }
  assert.ok(tickets.tokens > 0);
  assert.ok(report.programs.every((p) => p.run_ids.length === 5 && p.run_ids.every((id) => typeof id === "number")));
  assert.deepEqual([report.summary.runs, report.summary.passed, report.summary.flaky_blocks, report.summary.stable_blocks], [20, 19, 1, 4]);

  const again = await evalRun(dir, "--json", "--replay");
  assert.equal(again.exitCode, 1, again.stderr);
  const replayed = JSON.parse(again.stdout) as Report;
  const comparable = (r: Report) => JSON.stringify(r.programs.map(({ run_ids: _ids, ...p }) => ({ ...p, seconds: 0 })));
  assert.equal(comparable(replayed), comparable(report));
});

test("the table names each program and block and ends with a one-line summary", async () => {
  const dir = examplesCopy();
  const ran = await aiython(["eval", "tickets.py", "--repeat", "3"], { cwd: dir, env: cleanEnv({ AIYTHON_MODEL: "script:rules.toml" }), timeout: 120_000 });
  assert.equal(ran.exitCode, 1);
  assert.match(ran.stdout, /^aiython eval tickets\.py: 3 runs of each program\n\nprogram +runs +passed +pass\^1 +pass\^3 +exit +tokens +cost +time\n/);
  assert.match(ran.stdout, /\ntickets\.py +3 +2 +0\.67 +0\.00 +0×3 +\d+ +unknown +[\d.]+ s\n/);
  assert.match(ran.stdout, /\n {4}tickets\.py:17 block: flaky, reached in 3\/3 runs, 2 distinct answers: expression f"\{len.*×2; literal "Some tickets\." ×1\n/);
  assert.match(ran.stdout, /\n {4}not passed: output differs from the expected at line 2\n/);
  assert.match(ran.stdout, /\neval: 1 program, 3 runs, 2 passed; pass\^3 = 1 for 0 of 1; 1 flaky and 1 stable of 2 blocks; \d+ tokens; cost unknown; [\d.]+ s\n$/);
});

test("a manifest fault and a --replay with nothing recorded are usage errors that say what to do", async () => {
  const dir = tempProject({ "eval.toml": `[[program]]\nfile = "main.py"\nexpect = "1"\ncheck = "c.py"\n`, "main.py": "print(1)\n", "c.py": "" });
  const bad = await aiython(["eval", "."], { cwd: dir });
  assert.equal(bad.exitCode, 2);
  assert.equal(bad.stderr, "aiython: eval.toml: program 1: give one of expect, expect_file or check, not expect and check\n");
  const plain = tempProject({ "main.py": "print(1)\n" });
  const replay = await aiython(["eval", "main.py", "--replay", "--repeat", "2"], { cwd: plain });
  assert.equal(replay.exitCode, 2);
  assert.match(replay.stderr, /^aiython: --replay: no recorded eval of main\.py with 2 runs \(found 0\); run aiython eval --repeat 2 without --replay first\n$/);
});

test("every run honours the budget given to eval, and max_concurrency bounds the runs at once", async () => {
  const dir = tempProject({
    "aiython.toml": `version = 3\nmodel = "script:rules.toml"\nmax_concurrency = 1\n`,
    "rules.toml": `[[rule]]\nstatement = "pick"\nliteral = 1\ndelay = 0.2\n`,
    "twice.py": "a = pick one\nb = pick one\nprint(a + b)\n",
  });
  const ran = await aiython(["eval", "twice.py", "--repeat", "3", "--budget-calls", "1", "--json"], { cwd: dir, timeout: 120_000 });
  assert.equal(ran.exitCode, 1, ran.stderr);
  const report = JSON.parse(ran.stdout) as Report;
  assert.deepEqual(report.programs[0].exit_statuses, { "75": 3 }, "the second block's request is refused by --budget-calls 1 in every run");
  const listed = await aiython(["runs", "list", "--json"], { cwd: dir });
  const runs = (JSON.parse(listed.stdout) as { startedAt: string; endedAt: string }[]).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  assert.equal(runs.length, 3);
  for (let i = 1; i < runs.length; i++) assert.ok(runs[i].startedAt >= runs[i - 1].endedAt, `run ${i + 1} started after run ${i} ended (max_concurrency = 1)`);
});
