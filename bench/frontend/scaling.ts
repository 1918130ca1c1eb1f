// bench/frontend scaling: `aiython --explain` as users run it (the built CLI) on generated
// programs of 1 MB with 20 natural-language lines, 4 MB and 16 MB (20 lines each), and 1 MB with
// 2,000 natural-language lines with a model configured; each row's wall time and the peak resident
// set of the largest process (host or bridge: the kernel's accounting of children), with its ratio
// to the 1 MB case and memory per MB of source. Budgets (issue 35, on a quiet machine): 1 MB
// ≤ 1.0 s; 16 MB ≤ 1 GB peak; ≤ 20 MB of memory per MB of source; 2,000 lines ≤ 3 s.
//   npm run build && node --import tsx bench/frontend.ts scaling [rounds]

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildBigProgram } from "./big-program.js";

const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "aiython");
const rounds = Number(process.argv[3] ?? 1);
// Runs a command and prints its status, wall seconds and the peak resident set of the largest of its processes (KB).
const PEAK_OF = `
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(done.returncode, time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
`;
const TOML = 'version = 3\nmodel = { model = "bench-model", api_base = "http://127.0.0.1:9/v1" }\n';

interface Case {
  name: string;
  size: number;
  natural: number;
  configured: boolean;
  file: string;
}

const dir = mkdtempSync(path.join(tmpdir(), "aiython-frontend-scaling-"));
const cases: Case[] = [
  { name: "1 MB, 20 lines", size: 1_000_000, natural: 20, configured: false, file: "" },
  { name: "4 MB", size: 4_000_000, natural: 20, configured: false, file: "" },
  { name: "16 MB", size: 16_000_000, natural: 20, configured: false, file: "" },
  { name: "1 MB, 2,000 lines, configured", size: 1_000_000, natural: 2000, configured: true, file: "" },
];
for (const c of cases) {
  const folder = path.join(dir, c.name.replace(/\W+/g, "-"));
  mkdirSync(folder);
  if (c.configured) writeFileSync(path.join(folder, "aiython.toml"), TOML);
  c.file = path.join(folder, "big.py");
  writeFileSync(c.file, buildBigProgram(c.size, c.natural).source);
}

const seen = new Map<string, { seconds: number[]; mb: number[] }>(cases.map((c) => [c.name, { seconds: [], mb: [] }]));
try {
  for (let round = 0; round < rounds; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) {
      const env = { ...process.env, OPENAI_API_KEY: "unused" };
      const out = execFileSync(PYTHON, ["-c", PEAK_OF, CLI, "--explain", c.file], { encoding: "utf8", cwd: path.dirname(c.file), env })
        .trim()
        .split(" ");
      if (out[0] !== "0") throw new Error(`aiython --explain ${c.name} exited ${out[0]}`);
      seen.get(c.name)!.seconds.push(Number(out[1]));
      seen.get(c.name)!.mb.push(Number(out[2]) / 1024);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (ok: boolean) => (ok ? "within budget" : "OVER BUDGET");
const base = seen.get(cases[0].name)!;
const [baseSeconds, baseMb] = [median(base.seconds), median(base.mb)];
console.log(`aiython --explain, ${rounds} round${rounds === 1 ? "" : "s"}, medians; peak of the largest process`);
for (const c of cases) {
  const seconds = median(seen.get(c.name)!.seconds);
  const mb = median(seen.get(c.name)!.mb);
  const perMb = mb / (c.size / 1e6);
  const budgets = [
    c.name === cases[0].name ? `1.0 s ${verdict(seconds <= 1.0)}` : null,
    c.size === 16_000_000 ? `1 GB ${verdict(mb <= 1024)}` : null,
    c.size >= 4_000_000 ? `20 MB per MB ${verdict(perMb <= 20)}` : null,
    c.natural === 2000 ? `3 s ${verdict(seconds <= 3)}` : null,
  ].filter((b) => b !== null);
  console.log(
    `  ${c.name.padEnd(30)} ${seconds.toFixed(2).padStart(6)} s (${(seconds / baseSeconds).toFixed(1)}× 1 MB)  peak ${mb.toFixed(0).padStart(5)} MB (${(mb / baseMb).toFixed(1)}× 1 MB, ${perMb.toFixed(0)} MB per MB)  budget ${budgets.join(", ")}`,
  );
}
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (2 cores; other work shares them)`,
);
