// `aiython eval`'s runs: each program of the target `repeat` times, at most `concurrency` runs at
// once (the configuration's max_concurrency), each an ordinary journaled run; then the journal's id
// of each run, kept for `--replay`, and the report. Under `--replay` the k-th run of a program
// replays the k-th run of its last recorded eval, offline.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../errors.js";
import { evalPrograms, type EvalProgram } from "./manifest.js";
import { recordedCost, recordedRunIds, runIdsOf, saveRunIds } from "./recorded-runs.js";
import { evalReport, programReport, type EvalReport } from "./report.js";
import { removeTraces, runOnce, type RunResult } from "./run-once.js";

export interface EvalRequest {
  target: string;
  repeat: number;
  replay: boolean;
  /** aiython's options for every run: --profile, --config, budgets, --time-limit … */
  runOptions: string[];
  concurrency: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  /** Shown while the runs go (progress.ts); none when absent. */
  progress?: { start(total: number): void; finished(passed: boolean): void; end(): void };
}

export async function runEval(request: EvalRequest): Promise<EvalReport> {
  const started = performance.now();
  const programs = await evalPrograms(request.target, request.cwd);
  const resolved = path.resolve(request.cwd, request.target);
  const folder = fs.statSync(resolved).isDirectory() ? resolved : path.dirname(resolved);
  const sources = request.replay ? replaySources(folder, programs, request.repeat) : null;
  const traces = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-eval-"));
  try {
    const settings = { options: request.runOptions, env: request.env, traces };
    const tasks = programs.flatMap((program) => Array.from({ length: request.repeat }, (_, i) => ({ program, repetition: i + 1 })));
    const results = new Map<EvalProgram, RunResult[]>(programs.map((p) => [p, []]));
    request.progress?.start(tasks.length);
    try {
      await pool(tasks, request.concurrency, async ({ program, repetition }) => {
        const source = sources ? { run: sources.get(program)?.[repetition - 1] ?? null } : undefined;
        const result = await runOnce(program, repetition, settings, source);
        results.get(program)?.push(result);
        request.progress?.finished(result.passed);
      });
    } finally {
      request.progress?.end();
    }
    const ids = new Map<EvalProgram, (number | null)[]>();
    for (const program of programs) {
      const runs = (results.get(program) ?? []).sort((a, b) => a.repetition - b.repetition);
      ids.set(
        program,
        await runIdsOf(
          program,
          runs.map((r) => r.trace),
          request.env,
          request.configFile,
        ),
      );
    }
    if (!request.replay) saveRunIds(folder, ids);
    const reports = programs.map((program) => programReport(program.name, results.get(program) ?? [], ids.get(program) ?? []));
    // A replayed answer costs nothing now: the report shows what the recorded runs cost.
    if (sources)
      for (const [i, program] of programs.entries())
        reports[i].cost_usd = await recordedCost(
          program,
          (sources.get(program) ?? []).filter((id) => id !== null),
          request.env,
          request.configFile,
        );
    return evalReport(path.relative(request.cwd, resolved) || ".", request.repeat, request.replay, reports, (performance.now() - started) / 1000);
  } finally {
    removeTraces(traces);
  }
}

/**
 * The recorded runs each program's repetitions replay; a usage error when an eval of as many runs
 * was never recorded. A run the journal kept no record of (it never got an answer) is null.
 */
function replaySources(folder: string, programs: EvalProgram[], repeat: number): Map<EvalProgram, (number | null)[]> {
  const sources = new Map<EvalProgram, (number | null)[]>();
  for (const program of programs) {
    const ids = recordedRunIds(folder, program);
    if (ids.length < repeat)
      throw new UsageError(`--replay: no recorded eval of ${program.name} with ${repeat} runs (found ${ids.length}); run aiython eval --repeat ${repeat} without --replay first`);
    sources.set(program, ids.slice(0, repeat));
  }
  return sources;
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
