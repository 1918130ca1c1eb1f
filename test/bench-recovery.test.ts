// bench/recovery, the recovery corpus, verified against scripted models: each of its programs
// raises the runtime error its header names (under python3); a correct repair of every program
// passes its oracle and a wrong one proceeds but fails it (repairs/correct.toml, repairs/wrong.toml);
// and the benchmark's runner prints Healer's two metrics at 1 and 2 consultations exactly as a
// model that fixes some programs and not others earns them (repairs/scripted.toml: correct 01-20,
// wrong 21-30, right only at the second consultation 31-32, no answer 33-44), and again offline
// with --replay.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { aiython, cleanEnv, python, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const BENCH = path.join(ROOT, "bench", "recovery");
const PROGRAMS = path.join(BENCH, "programs");
const files = fs
  .readdirSync(PROGRAMS)
  .filter((name) => name.endsWith(".py"))
  .sort();

/** A copy of the corpus (programs/, oracle.py, repairs/) in a project of its own: the runs' journal goes there. */
function corpusCopy(): string {
  const copies: Record<string, { copy: string }> = { "oracle.py": { copy: path.join(BENCH, "oracle.py") } };
  for (const name of fs.readdirSync(PROGRAMS)) if (name.endsWith(".py") || name === "eval.toml") copies[`programs/${name}`] = { copy: path.join(PROGRAMS, name) };
  for (const name of fs.readdirSync(path.join(BENCH, "repairs"))) copies[`repairs/${name}`] = { copy: path.join(BENCH, "repairs", name) };
  return tempProject(copies);
}

interface Report {
  programs: { program: string; passed: number; exit_statuses: Record<string, number>; per_run: { status: number; passed: boolean; consultations: number }[] }[];
}

async function corpusAgainst(rules: string): Promise<Report> {
  const ran = await aiython(["eval", ".", "--json"], {
    cwd: path.join(corpusCopy(), "programs"),
    env: cleanEnv({ AIYTHON_MODEL: `script:../repairs/${rules}` }),
    timeout: 600_000,
  });
  assert.ok(ran.exitCode === 0 || ran.exitCode === 1, ran.stderr);
  return JSON.parse(ran.stdout) as Report;
}

test("the corpus holds at least 40 programs, each raising the error its header names under python3", async () => {
  assert.ok(files.length >= 40, `${files.length} programs`);
  for (const file of files) {
    const header = fs.readFileSync(path.join(PROGRAMS, file), "utf8").split("\n")[0];
    const error = /^# (?:messy data: )?(\w+):/.exec(header)?.[1];
    assert.ok(error, `${file}: its header names its error`);
    const ran = await python([file], { cwd: PROGRAMS });
    assert.equal(ran.exitCode, 1, file);
    assert.match(ran.stderr.trim().split("\n").at(-1) ?? "", new RegExp(`^(\\w+\\.)*${error}\\b`), file);
  }
});

test("a correct repair of every program passes its oracle", async () => {
  const report = await corpusAgainst("correct.toml");
  assert.deepEqual(
    report.programs.map((p) => p.program),
    files,
  );
  for (const program of report.programs) {
    const [run] = program.per_run;
    assert.deepEqual([run.status, run.passed, run.consultations], [0, true, 1], program.program);
  }
});

test("a wrong repair of every program proceeds and fails its oracle", async () => {
  const report = await corpusAgainst("wrong.toml");
  for (const program of report.programs) {
    assert.equal(program.per_run[0].status, 0, `${program.program} proceeds`);
    assert.equal(program.per_run[0].passed, false, `${program.program}'s oracle refuses the wrong repair`);
  }
});

test("the runner prints Healer's two metrics at 1 and 2 consultations for a model that fixes some and not others", async () => {
  const env = cleanEnv({ AIYTHON_MODEL: "script:../repairs/scripted.toml" });
  const corpus = path.join(corpusCopy(), "programs");
  const ran = await execa("node", ["--import", "tsx", path.join(BENCH, "run.ts"), "--corpus", corpus, "--json"], {
    cwd: ROOT,
    env,
    extendEnv: false,
    reject: false,
    timeout: 600_000,
  });
  assert.equal(ran.exitCode, 0, String(ran.stderr));
  const metrics = JSON.parse(String(ran.stdout)) as { programs: number; all: Record<string, number>; byKind: Record<string, Record<string, number>> };
  assert.equal(metrics.programs, files.length);
  assert.deepEqual(metrics.all, { runs: files.length, proceeds1: 30, correct1: 20, proceeds2: 32, correct2: 22 });
  assert.deepEqual(metrics.byKind.ZeroDivisionError, { runs: 5, proceeds1: 2, correct1: 0, proceeds2: 4, correct2: 2 });
  // The same numbers again, offline: each run replays the one just recorded.
  const table = await execa("node", ["--import", "tsx", path.join(BENCH, "run.ts"), "--corpus", corpus, "--replay"], {
    cwd: ROOT,
    env,
    extendEnv: false,
    reject: false,
    timeout: 600_000,
  });
  assert.match(String(table.stdout), /\nall +44 +68\.2 % +45\.5 % +72\.7 % +50\.0 %$/);
});
