// The report of `aiython eval`: per program its runs, exit statuses, passes and pass^k (the
// chance that k runs drawn from the n made all pass: C(c,k)/C(n,k) for c passing runs, as τ-bench
// defines it), tokens, cost and time; per block (file:line and mode) its answers across the runs
// and whether it is stable or flaky: flaky when the same question (the same request, values
// included) got different answers, in one run or across runs; a block asked different questions
// (each ticket of a loop) is stable while each question keeps its answer, in whatever order
// concurrent workers reach them.

import type { RunResult } from "./run-once.js";

export interface BlockReport {
  block: string;
  mode: "block" | "recovery";
  /** Runs that reached the block at least once. */
  reached: number;
  invocations: number;
  failed: number;
  /** Each distinct answer and how often it came, most frequent first. */
  answers: { answer: string; count: number }[];
  verdict: "stable" | "flaky";
}

export interface ProgramReport {
  program: string;
  runs: number;
  passed: number;
  /** pass^1 … pass^n. */
  pass_k: number[];
  exit_statuses: Record<string, number>;
  /** Why runs did not pass, each distinct reason once. */
  failures: string[];
  tokens: number;
  cost_usd: number | null;
  seconds: number;
  blocks: BlockReport[];
  /** Each run by repetition: its exit status, whether it passed, and the most consultations one failing statement needed (0: none). */
  per_run: { repetition: number; status: number; passed: boolean; consultations: number }[];
  /** The journal's id of each run, by repetition (null where it was not recorded). */
  run_ids: (number | null)[];
}

export interface EvalReport {
  target: string;
  repeat: number;
  replayed: boolean;
  programs: ProgramReport[];
  summary: {
    programs: number;
    runs: number;
    passed: number;
    all_passed_programs: number;
    stable_blocks: number;
    flaky_blocks: number;
    tokens: number;
    cost_usd: number | null;
    seconds: number;
    wall_seconds: number;
  };
}

export function passK(passed: number, runs: number): number[] {
  const choose = (n: number, k: number): number => {
    let value = 1;
    for (let i = 0; i < k; i++) value = (value * (n - i)) / (i + 1);
    return value;
  };
  return Array.from({ length: runs }, (_, i) => (passed < i + 1 ? 0 : choose(passed, i + 1) / choose(runs, i + 1)));
}

export function programReport(program: string, results: RunResult[], runIds: (number | null)[]): ProgramReport {
  const runs = [...results].sort((a, b) => a.repetition - b.repetition);
  const passed = runs.filter((r) => r.passed).length;
  const exit_statuses: Record<string, number> = {};
  for (const run of runs) exit_statuses[run.status] = (exit_statuses[run.status] ?? 0) + 1;
  const all = runs.flatMap((r) => r.invocations);
  const cost = all.reduce<number | null>((sum, inv) => (sum === null || inv.costUsd === null ? null : sum + inv.costUsd), 0);
  return {
    program,
    runs: runs.length,
    passed,
    pass_k: passK(passed, runs.length),
    exit_statuses,
    failures: [...new Set(runs.flatMap((r) => (r.why ? [r.why] : [])))],
    tokens: all.reduce((sum, inv) => sum + inv.tokens, 0),
    cost_usd: cost,
    seconds: runs.reduce((sum, r) => sum + r.seconds, 0),
    blocks: blockReports(runs),
    per_run: runs.map((r) => ({ repetition: r.repetition, status: r.status, passed: r.passed, consultations: Math.max(0, ...r.invocations.map((inv) => inv.attempt ?? 0)) })),
    run_ids: runIds,
  };
}

function blockReports(runs: RunResult[]): BlockReport[] {
  const keys = new Map<string, { block: string; mode: "block" | "recovery" }>();
  for (const inv of runs.flatMap((r) => r.invocations)) keys.set(`${inv.block} ${inv.mode}`, { block: inv.block, mode: inv.mode });
  return [...keys.entries()]
    .map(([key, { block, mode }]) => {
      const perRun = runs.map((r) => r.invocations.filter((inv) => `${inv.block} ${inv.mode}` === key));
      const counts = new Map<string, number>();
      for (const inv of perRun.flat()) counts.set(inv.answer, (counts.get(inv.answer) ?? 0) + 1);
      const answersOf = new Map<string, Set<string>>();
      for (const inv of perRun.flat()) answersOf.set(inv.input, (answersOf.get(inv.input) ?? new Set()).add(inv.answer));
      return {
        block,
        mode,
        reached: perRun.filter((invs) => invs.length > 0).length,
        invocations: perRun.flat().length,
        failed: perRun.flat().filter((inv) => !inv.finished).length,
        answers: [...counts.entries()].map(([answer, count]) => ({ answer, count })).sort((a, b) => b.count - a.count),
        verdict: [...answersOf.values()].some((answers) => answers.size > 1) ? ("flaky" as const) : ("stable" as const),
      };
    })
    .sort((a, b) => a.block.localeCompare(b.block, "en", { numeric: true }));
}

export function evalReport(target: string, repeat: number, replayed: boolean, programs: ProgramReport[], wallSeconds: number): EvalReport {
  const blocks = programs.flatMap((p) => p.blocks);
  return {
    target,
    repeat,
    replayed,
    programs,
    summary: {
      programs: programs.length,
      runs: programs.reduce((sum, p) => sum + p.runs, 0),
      passed: programs.reduce((sum, p) => sum + p.passed, 0),
      all_passed_programs: programs.filter((p) => p.passed === p.runs).length,
      stable_blocks: blocks.filter((b) => b.verdict === "stable").length,
      flaky_blocks: blocks.filter((b) => b.verdict === "flaky").length,
      tokens: programs.reduce((sum, p) => sum + p.tokens, 0),
      cost_usd: programs.reduce<number | null>((sum, p) => (sum === null || p.cost_usd === null ? null : sum + p.cost_usd), 0),
      seconds: programs.reduce((sum, p) => sum + p.seconds, 0),
      wall_seconds: wallSeconds,
    },
  };
}
