// The host's share of `frontend.ts big` (SPEC §12: a 1 MB program planned in 1.0 s), A/B against
// another checkout, run with `node --import tsx bench/frontend-host.ts [pairs] --against ROOT
// [--natural N]`. The generated 1 MB program (with 20 natural-language lines, or N) is analyzed by both trees' analyzeSource in one process, alternating
// (A B A B), against the same recorded oracle: its verdicts are taken once from a real python3
// oracle (both trees ask it once) and then answered from memory on the next turn of the event
// loop, so each run's figures are the host's frontend work alone (no interpreter start, no
// compile on the other core competing), the least noisy view of a change to it. Prints the
// main thread's CPU time (from /proc) and the wall time of each run, their medians and minima,
// the ratios B/A, and whether every plan was the same. Asserts nothing about time.

import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CompileOracle, CompileVerdict } from "../src/frontend/oracle.js";
import { buildBigProgram } from "./frontend/big-program.js";
import { startPythonOracle } from "../test/support/python-oracle.js";

const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";
const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Tree {
  root: string;
  analyze: (args: Record<string, unknown>) => Promise<unknown>;
  names: readonly string[];
}

interface Run {
  cpu: number;
  wall: number;
  plan: string;
}

async function load(root: string): Promise<Tree> {
  const { analyzeSource } = await import(path.join(root, "src/frontend/index.js"));
  const { CAPABILITY_NAMES } = await import(path.join(root, "src/capabilities/names.js"));
  return { root, analyze: analyzeSource, names: CAPABILITY_NAMES };
}

/** CPU time (user + system, ms) of this process's main thread. */
function mainThreadCpu(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function analyzeWith(tree: Tree, source: string, oracle: CompileOracle): Promise<unknown> {
  return tree.analyze({ source, filename: "/bench/big.py", displayName: "big.py", oracle, entryModule: true, checkpoints: true, capabilityNames: tree.names });
}

/** The verdicts of a real oracle for every text either tree asks, then an oracle answering from them. */
async function recordedOracle(trees: Tree[], source: string): Promise<CompileOracle> {
  const verdicts = new Map<string, CompileVerdict>();
  const real = startPythonOracle(PYTHON);
  const recording: CompileOracle = {
    check: async (items) => {
      const answers = await real.check(items);
      for (const [i, item] of items.entries()) verdicts.set(item.source, answers[i]);
      return answers;
    },
  };
  try {
    for (const tree of trees) await analyzeWith(tree, source, recording);
  } finally {
    await real.close();
  }
  const answer = (text: string): CompileVerdict => {
    const v = verdicts.get(text);
    if (!v) throw new Error("the oracle was asked a text the recording run did not ask");
    return v;
  };
  return { check: (items) => new Promise((resolve) => setImmediate(() => resolve(items.map((i) => answer(i.source))))) };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
}

function row(label: string, runs: Run[]): string {
  const cpu = runs.map((r) => r.cpu);
  return `  ${label}: main-thread CPU ${cpu.join(" ")} ms (median ${median(cpu)}, min ${Math.min(...cpu)}); wall median ${median(runs.map((r) => r.wall)).toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const naturalAt = args.indexOf("--natural");
  const natural = naturalAt >= 0 ? Number(args.splice(naturalAt, 2)[1]) : 20;
  const at = args.indexOf("--against");
  if (at < 0 || !args[at + 1]) throw new Error("usage: node --import tsx bench/frontend-host.ts [pairs] --against ROOT [--natural N]");
  const pairs = Number(args.find((a, i) => i !== at + 1 && /^\d+$/.test(a)) ?? 8);
  const trees = [await load(path.resolve(args[at + 1])), await load(HERE)];
  const { source } = buildBigProgram(1_000_000, natural);
  const oracle = await recordedOracle(trees, source);
  const runs: Run[][] = [[], []];
  for (let i = 0; i < 2 * pairs + 2; i++) {
    const k = i % 2;
    const cpu0 = mainThreadCpu();
    const t0 = performance.now();
    const plan = await analyzeWith(trees[k], source, oracle);
    const run = { wall: performance.now() - t0, cpu: mainThreadCpu() - cpu0, plan: JSON.stringify(plan) };
    if (i >= 2) runs[k].push(run); // the first pair warms both trees up
  }
  const [a, b] = runs;
  const ratio = (f: (r: Run[]) => number): string => (f(b) / f(a)).toFixed(3);
  console.log(`frontend host work on the 1 MB program with ${natural} natural-language lines, ${pairs} pairs, recorded oracle (A = ${trees[0].root}, B = ${trees[1].root}):`);
  console.log(row("A", a));
  console.log(row("B", b));
  console.log(
    `  B/A: main-thread CPU median ${ratio((r) => median(r.map((x) => x.cpu)))}, min ${ratio((r) => Math.min(...r.map((x) => x.cpu)))}; wall median ${ratio((r) => median(r.map((x) => x.wall)))}`,
  );
  console.log(`  plans identical: ${[...a, ...b].every((r) => r.plan === a[0].plan)}`);
  console.log(
    `  load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (2 cores; other work shares them)`,
  );
}

await main();
