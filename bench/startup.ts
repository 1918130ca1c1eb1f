// bench/startup: `aiython hello.py` against `python3 hello.py` with the same interpreter, in
// paired runs (alternating, so machine noise hits both alike). Prints the median difference in
// ms; the budget (SPEC §12) is 80 ms. Run: node bench/startup.ts is not possible (TypeScript), so
//   node --import tsx bench/startup.ts [runs]
// after `npm run build` (it measures the built CLI, as users run it).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "bin", "aiython");
const runs = Number(process.argv[2] ?? 40);
const BUDGET_MS = 80;

const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-"));
const hello = path.join(dir, "hello.py");
fs.writeFileSync(hello, 'print("hello")\n');
const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_PYTHON: python };
for (const key of Object.keys(env)) if (key.startsWith("OPENAI_") || key === "AIYTHON_MODEL") delete env[key];

function time(command: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 || String(result.stdout) !== "hello\n") {
    throw new Error(`${command} failed: ${result.stderr}`);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (let i = 0; i < 3; i++) {
  time(CLI, [hello]);
  time(python, [hello]);
}
const ours: number[] = [];
const theirs: number[] = [];
const diffs: number[] = [];
for (let i = 0; i < runs; i++) {
  // Alternate which goes first so that neither always runs on a warmer machine.
  const [a, b] = i % 2 ? [time(CLI, [hello]), time(python, [hello])] : (() => {
    const p = time(python, [hello]);
    return [time(CLI, [hello]), p];
  })();
  ours.push(a);
  theirs.push(b);
  diffs.push(a - b);
}
fs.rmSync(dir, { recursive: true, force: true });
const overhead = median(diffs);
console.log(`interpreter: ${python}`);
console.log(`runs: ${runs} paired`);
console.log(`python3 hello.py   median ${median(theirs).toFixed(1)} ms`);
console.log(`aiython hello.py   median ${median(ours).toFixed(1)} ms`);
console.log(`overhead           median ${overhead.toFixed(1)} ms (budget ${BUDGET_MS} ms) ${overhead <= BUDGET_MS ? "within budget" : "OVER BUDGET"}`);
console.log(`ratio              ${(median(ours) / median(theirs)).toFixed(2)}x`);
