// Healer's two metrics over an `aiython eval --json` report of the recovery corpus: a run
// *proceeds* when it exits 0 after its runtime error, and *proceeds correctly* when, besides, the
// oracle accepts its output (eval's `passed`, judged by oracle.py). At 1 consultation a run counts
// only if no failing statement needed a second consultation (with one allowed, its first answer
// would have been the last); at 2, as it ran (SPEC §4.2 allows two). By error kind (the first
// word of each program's header) and for the whole corpus.

import fs from "node:fs";
import path from "node:path";

export interface EvalJson {
  programs: { program: string; per_run: { status: number; passed: boolean; consultations: number }[] }[];
}

export interface Rates {
  runs: number;
  proceeds1: number;
  correct1: number;
  proceeds2: number;
  correct2: number;
}

export interface Metrics {
  byKind: Record<string, Rates>;
  all: Rates;
}

const empty = (): Rates => ({ runs: 0, proceeds1: 0, correct1: 0, proceeds2: 0, correct2: 0 });

/** The kind a program's header names: `# KeyError: …` → KeyError, `# messy data: ValueError: …` → messy data. */
export function kindOf(programsDir: string, program: string): string {
  const first = fs.readFileSync(path.join(programsDir, program), "utf8").split("\n")[0];
  return /^# ([\w ]+):/.exec(first)?.[1] ?? "other";
}

export function metricsOf(report: EvalJson, programsDir: string): Metrics {
  const byKind: Record<string, Rates> = {};
  const all = empty();
  for (const program of report.programs) {
    const kind = kindOf(programsDir, program.program);
    byKind[kind] ??= empty();
    for (const run of program.per_run) {
      for (const rates of [byKind[kind], all]) {
        const proceeds = run.status === 0;
        rates.runs += 1;
        rates.proceeds2 += proceeds ? 1 : 0;
        rates.correct2 += proceeds && run.passed ? 1 : 0;
        rates.proceeds1 += proceeds && run.consultations <= 1 ? 1 : 0;
        rates.correct1 += proceeds && run.passed && run.consultations <= 1 ? 1 : 0;
      }
    }
  }
  return { byKind, all };
}

const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)} %`);

export function metricsTable(metrics: Metrics): string {
  const header = ["error kind", "runs", "proceeds@1", "correct@1", "proceeds@2", "correct@2"];
  const row = (name: string, r: Rates) => [
    name,
    String(r.runs),
    percent(r.proceeds1, r.runs),
    percent(r.correct1, r.runs),
    percent(r.proceeds2, r.runs),
    percent(r.correct2, r.runs),
  ];
  const rows = [...Object.entries(metrics.byKind).map(([kind, rates]) => row(kind, rates)), row("all", metrics.all)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}
