// bench/guard: what the source guard (SPEC §9) costs. The guard is an audit hook (with a few
// stand-ins) installed at a run's first tool call and never removed, so every later audit event
// of the program calls it. Runs of bench/guard/workload.py, in rotating order: with no hook, as
// the program's own code once a tool has run (the state between blocks), the same while a
// function a tool made is still alive, and as a tool's code;
// each times inside the process (best of its repeats) an audit-event-heavy loop and the
// CPU-bound work of bench/overhead. Prints medians and ratios against no hook; the budget is
// SPEC §12's 1.03 for execution overhead, for the program's own code and the CPU-bound work.
// Run:
//   node --import tsx bench/guard.ts [pairs] [--python PATH]

import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WORKLOAD = path.join(ROOT, "bench", "guard", "workload.py");
const BUDGET = 1.03;

const args = process.argv.slice(2);
const pythonFlag = args.indexOf("--python");
const python = pythonFlag >= 0 ? args.splice(pythonFlag, 2)[1] : "python3";
const pairs = Number(args[0] ?? 8);

type Times = { events: number[]; cpu: number[] };
const variants: { name: string; args: string[]; times: Times }[] = [
  { name: "no hook", args: [WORKLOAD, "plain"], times: { events: [], cpu: [] } },
  { name: "program code, guard installed", args: [WORKLOAD, "program"], times: { events: [], cpu: [] } },
  { name: "program code, a tool's function alive", args: [WORKLOAD, "leftover"], times: { events: [], cpu: [] } },
  { name: "a tool's code", args: [WORKLOAD, "tool"], times: { events: [], cpu: [] } },
];

function run(variant: (typeof variants)[number]): void {
  const result = spawnSync(python, variant.args, { encoding: "utf8" });
  const match = /^events (\S+) cpu (\S+)$/m.exec(result.stdout ?? "");
  if (result.status !== 0 || !match) throw new Error(`${variant.name} failed (${result.status}): ${result.stderr}`);
  variant.times.events.push(Number(match[1]));
  variant.times.cpu.push(Number(match[2]));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

for (const variant of variants) run(variant); // warm-up
for (const variant of variants) variant.times = { events: [], cpu: [] };
for (let i = 0; i < pairs; i++) for (let k = 0; k < variants.length; k++) run(variants[(i + k) % variants.length]);

const [plain, ...guarded] = variants;
console.log(`interpreter: ${python}; ${pairs} rounds; time measured inside the program (best of 5 repeats each)`);
for (const part of ["events", "cpu"] as const) {
  const cells = guarded.map((variant) => {
    const ratio = median(variant.times[part]) / median(plain.times[part]);
    const judged = variant.name === "program code, guard installed" || part === "cpu";
    return `${variant.name} ${(median(variant.times[part]) * 1000).toFixed(1)} ms ratio ${ratio.toFixed(3)}${judged ? (ratio <= BUDGET ? " (within budget)" : " (OVER BUDGET)") : ""}`;
  });
  console.log(`${part.padEnd(6)} no hook ${(median(plain.times[part]) * 1000).toFixed(1)} ms | ${cells.join(" | ")}`);
}
console.log(`budget: ratio ≤ ${BUDGET} (SPEC §12) for the program's own code; "events" is a worst case: nothing but audited calls, one of them a write the guard judges`);
