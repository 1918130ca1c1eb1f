// The recovery benchmark: `aiython eval` of the corpus in programs/ (44 programs that each raise
// one runtime error a model could repair, judged by oracle.py) against the configured model, then
// Healer's two metrics — the share of runs that *proceed* and that *proceed correctly* — at 1 and
// at 2 consultations, by error kind and overall (metrics.ts). Nothing is timed: the load average is
// printed only to say how busy the machine was.
//
//   npm run build
//   AIYTHON_MODEL=openai/gpt-4.1-mini node --import tsx bench/recovery/run.ts [--repeat N] [--json] [aiython options]
//
// `--corpus DIR` runs a copy of programs/ (with oracle.py beside it) instead of this one; other
// arguments (--profile NAME, --config FILE, --budget-cost USD, --replay …) go to `aiython eval`.

import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { metricsOf, metricsTable, type EvalJson } from "./metrics.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, "..", "..", "bin", "aiython");

const args = process.argv.slice(2);
const json = args.includes("--json");
const corpusAt = args.indexOf("--corpus");
const programs = corpusAt === -1 ? path.join(here, "programs") : path.resolve(args[corpusAt + 1]);
const passed = args.filter((arg, i) => arg !== "--json" && i !== corpusAt && i !== corpusAt + 1);
const ran = await execa(cli, ["eval", ".", "--json", ...passed], { cwd: programs, reject: false, stdin: "ignore", stderr: "inherit" });
if (ran.exitCode !== 0 && ran.exitCode !== 1) {
  process.stderr.write(`recovery bench: aiython eval ended with exit ${ran.exitCode}\n`);
  process.exit(ran.exitCode ?? 1);
}
const report = JSON.parse(String(ran.stdout)) as EvalJson & { repeat: number };
const metrics = metricsOf(report, programs);
const model = process.env.AIYTHON_MODEL ?? "the configured model";
if (json) {
  process.stdout.write(`${JSON.stringify({ model, repeat: report.repeat, programs: report.programs.length, ...metrics })}\n`);
} else {
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  process.stdout.write(`recovery corpus: ${report.programs.length} programs × ${report.repeat} run(s) against ${model} (load average ${load})\n\n`);
  process.stdout.write(`${metricsTable(metrics)}\n`);
}
