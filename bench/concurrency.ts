// bench/concurrency: AI blocks reached at once (SPEC §8, §12) against a loopback model that
// takes 1 s per answer. Budgets (wall time of the whole run, start-up included):
//   20 blocks in 20 threads, max_concurrency = 20        ≤ 1.5 s
//   100 blocks in 100 threads, max_concurrency = 100     ≤ 2.5 s
//   10 asyncio tasks, max_concurrency = 10               ≤ 1.5 s
//   8 pool worker processes × 5 blocks, max_concurrency = 8  ≤ 7 s
// and the local cost per block (a model answering at once) of 20 blocks in 20 threads against
// 20 blocks one after another in one thread: unchanged (ratio about 1). It also prints what the
// 1 s waits add to the run with the same program against a model answering at once (ideal: 1 s
// per batch), which separates concurrency from start-up and the first block's loading.
// Rounds run every case once, in turn (A B C … A B C …); medians of the rounds are printed.
// Every run uses the interpreter `python3` resolves to (sys.executable), as startup.ts and
// imports.ts do: a version manager's shim in front of it (pyenv's costs ~100 ms per exec here)
// is paid by python3 alike and is no part of these budgets; start-up against python3 is
// startup.ts's row.
//   npm run build && node --import tsx bench/concurrency.ts [rounds]

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { echoFinishResponder, startLoopbackModel } from "../test/support/loopback-model.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, "..", "bin", "aiython");
const rounds = Number(process.argv[2] ?? 3);

const slow = await startLoopbackModel({ responder: echoFinishResponder({ literal: "word", delayMs: 1000 }) });
const instant = await startLoopbackModel({ responder: echoFinishResponder({ literal: "word" }) });

interface Case {
  name: string;
  program: string;
  args: string[];
  maxConcurrency: number;
  url: string;
  budget?: number;
  times: number[];
}

const cases: Case[] = [
  { name: "20 threads @20", program: "threads.py", args: ["20"], maxConcurrency: 20, url: slow.url, budget: 1.5, times: [] },
  { name: "100 threads @100", program: "threads.py", args: ["100"], maxConcurrency: 100, url: slow.url, budget: 2.5, times: [] },
  { name: "10 asyncio tasks @10", program: "tasks.py", args: ["10"], maxConcurrency: 10, url: slow.url, budget: 1.5, times: [] },
  { name: "8 workers x 5 @8", program: "pool.py", args: ["8", "5"], maxConcurrency: 8, url: slow.url, budget: 7, times: [] },
  { name: "local: 20 sequential", program: "sequential.py", args: ["20"], maxConcurrency: 20, url: instant.url, times: [] },
  { name: "local: 20 threads", program: "threads.py", args: ["20"], maxConcurrency: 20, url: instant.url, times: [] },
];

/** A project folder per case: its program and an aiython.toml with its max_concurrency. */
function projectFor(c: Case): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-conc-"));
  fs.mkdirSync(path.join(dir, ".git"));
  fs.copyFileSync(path.join(here, "concurrency", c.program), path.join(dir, c.program));
  fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = "bench"\napi_base = "${c.url}"\nmax_concurrency = ${c.maxConcurrency}\njournal = false\n`);
  return dir;
}

const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "unused" };
for (const key of Object.keys(env)) if (key.startsWith("AIYTHON_") || key === "OPENAI_BASE_URL") delete env[key];
env.AIYTHON_PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();

/** Runs the CLI asynchronously: the loopback models live in this process and must keep answering. */
function run(c: Case, dir: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(CLI, [c.program, ...c.args], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${c.name} failed (${code}): ${stderr}`));
      resolve(Number(process.hrtime.bigint() - start) / 1e9);
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dirs = cases.map(projectFor);
for (let r = 0; r < rounds; r++) {
  for (const [i, c] of cases.entries()) c.times.push(await run(c, dirs[i]));
}
await Promise.all([slow.close(), instant.close()]);
for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });

console.log(`bench/concurrency: ${rounds} rounds, loopback model latency 1 s (local cases: 0 s); interpreter ${env.AIYTHON_PYTHON}`);
for (const c of cases) {
  const m = median(c.times);
  const verdict = c.budget === undefined ? "" : `  budget ≤ ${c.budget} s  ${m <= c.budget ? "ok" : "OVER"}`;
  console.log(`${c.name.padEnd(24)} median ${m.toFixed(2)} s  (${c.times.map((t) => t.toFixed(2)).join(", ")})${verdict}`);
}
const sequential = median(cases[4].times) / 20;
const threaded = median(cases[5].times) / 20;
// What the waits cost beyond a run whose model answers at once: 1 s per max_concurrency batch is ideal.
const fixed = median(cases[5].times);
console.log(
  `beyond the 0 s run (${fixed.toFixed(2)} s): 20 threads +${(median(cases[0].times) - fixed).toFixed(2)} s, 100 threads +${(median(cases[1].times) - fixed).toFixed(2)} s, 10 tasks +${(median(cases[2].times) - fixed).toFixed(2)} s (ideal +1.00 each)`,
);
console.log(`local cost per block: sequential ${(sequential * 1000).toFixed(1)} ms, 20 threads ${(threaded * 1000).toFixed(1)} ms, ratio ${(threaded / sequential).toFixed(2)}`);
