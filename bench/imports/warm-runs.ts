// bench/imports: whole warm runs side by side (issue 35), as a user of a large project sees them:
//   sympy    sympy copied from the interpreter's site-packages into the project (project code,
//            ~500 modules imported), main.py expanding a polynomial;
//   spawn    a configured run whose main.py starts a 'spawn' ProcessPoolExecutor of 4 workers,
//            each importing the generated project's 50 modules (generated-project.ts) and
//            calling them: the workers must find what the parent prepared in the same cache.
// python3 and each aiython variant (unconfigured; configured: a model at a dead address, recovery
// on, nothing asked) run in turn, the order rotating every round (A B C, C B A, …), after one
// warm-up run of each (both caches, __pycache__ and .aiython/cache, filled). Wall time per run;
// each row the median, its ratio to python3's median, and the median of the per-round ratios.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeGeneratedProject } from "./generated-project.js";

export interface Runner {
  name: string;
  command: string;
  env: NodeJS.ProcessEnv;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function timed(dir: string, runner: Runner, script: string): { ms: number; stdout: string } {
  const start = process.hrtime.bigint();
  const result = spawnSync(runner.command, [script], { cwd: dir, env: runner.env, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${runner.name} ${script} in ${dir} failed (${result.status}): ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** Rounds of every runner in rotating order; each runner's times. The first runner is the baseline. */
function rounds(dir: string, script: string, runners: Runner[], count: number): number[][] {
  const times = runners.map(() => [] as number[]);
  const expected = timed(dir, runners[0], script).stdout;
  for (const runner of runners.slice(1)) {
    const { stdout } = timed(dir, runner, script); // warm-up: both caches filled
    if (stdout !== expected) throw new Error(`${runner.name} printed ${JSON.stringify(stdout)}, python3 ${JSON.stringify(expected)}`);
  }
  for (let round = 0; round < count; round++) {
    const order = runners.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) times[i].push(timed(dir, runners[i], script).ms);
  }
  return times;
}

function report(title: string, runners: Runner[], times: number[][], budget: number): string[] {
  const base = median(times[0]);
  const lines = [`${title}:`, `  ${runners[0].name.padEnd(22)} ${base.toFixed(0).padStart(6)} ms`];
  for (let i = 1; i < runners.length; i++) {
    const ratio = median(times[i]) / base;
    const paired = median(times[i].map((t, round) => t / times[0][round]));
    const verdict = ratio <= budget ? "within budget" : "OVER BUDGET";
    lines.push(
      `  ${runners[i].name.padEnd(22)} ${median(times[i]).toFixed(0).padStart(6)} ms  ratio ${ratio.toFixed(2)} (paired ${paired.toFixed(2)})  budget ${budget}× ${verdict}`,
    );
  }
  return lines;
}

function projectDir(name: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `aiython-imports-${name}-`)));
  fs.mkdirSync(path.join(dir, ".git"));
  return dir;
}

/** sympy as project code, warm: python3 against aiython unconfigured and configured. */
export function sympyRows(python: string, runners: Runner[], count: number, budget: number): string[] {
  const found = spawnSync(python, ["-c", "import os, sympy; print(os.path.dirname(sympy.__file__))"], { encoding: "utf8" }).stdout.trim();
  if (!found) return [`(sympy is not importable by ${python}: the sympy rows are skipped)`];
  const dir = projectDir("sympy-warm");
  try {
    fs.cpSync(found, path.join(dir, "sympy"), { recursive: true, filter: (src) => path.basename(src) !== "__pycache__" });
    fs.writeFileSync(path.join(dir, "main.py"), 'import sympy\nx = sympy.Symbol("x")\nprint(sympy.expand((x + 1) ** 5))\n');
    return report("sympy as project code, warm (whole run)", runners, rounds(dir, "main.py", runners, count), budget);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const SPAWN_MAIN = `import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def work(i):
    import importlib
    return sum(importlib.import_module("app.m%02d" % n).run() for n in range(50))


if __name__ == "__main__":
    with ProcessPoolExecutor(4, mp_context=multiprocessing.get_context("spawn")) as pool:
        print(sum(pool.map(work, range(8))))
`;

/** A spawn pool of 4 workers importing the generated project's 50 modules, warm. */
export function spawnRows(runners: Runner[], count: number, budget: number): string[] {
  const dir = projectDir("spawn");
  try {
    writeGeneratedProject(dir, 50);
    fs.writeFileSync(path.join(dir, "pool.py"), SPAWN_MAIN);
    return report("spawn pool, 4 workers × 50 project modules, warm (whole run)", runners, rounds(dir, "pool.py", runners, count), budget);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
