// `aiython recheck [RUN_ID...] [--last N]` (SPEC §11.3): recorded runs as a regression suite.
// Each run's command line runs again, in its folder, against the current source, under strict
// replay from that run (`--replay=RUN_ID`), with the program's output going nowhere and no model
// called; one line per run on stdout: `same`, `diverged at FILE:LINE: <what differs>` (the first
// request the recording cannot answer), or `exit N, recorded M`. Exit 0 when every run is the
// same, 1 otherwise. Default: the most recent run of each distinct command line that ended as its
// program ended it (never a recheck run), at most 20 (`--last N`). The runs go one after another,
// in this process; recheck runs are journaled with mode `recheck`.

import path from "node:path";
import { isAiythonError, UsageError, type RunOutcome } from "../../errors.js";
import { parseSubcommand, quietCommand } from "./subcommand-parse.js";
import type { RunRecord } from "../../journal/index.js";
import type { ReplayMiss } from "../../run/run-command.js";
import { protectHostStdio } from "../host-stdio.js";
import { writeStdout } from "../stdout.js";
import { projectJournal, type ProjectContext } from "./project-journal.js";
import { recordedCommand, recordedConfig, runById, runId, type RecordedCommand } from "./recorded-command.js";
import { exitLabel } from "./run-labels.js";

const USAGE = "aiython recheck [RUN_ID...] [--last N]";
const DEFAULT_LAST = 20;
/** Signals that stop the recheck rather than count as a run's exit. */
const INTERRUPTS = new Set(["SIGINT", "SIGTERM", "SIGHUP"]);

export interface RecheckContext extends ProjectContext {
  ignoredSignals: readonly number[];
  out?: (text: string) => void | Promise<void>;
}

export async function recheckCommand(args: readonly string[], ctx: RecheckContext): Promise<RunOutcome> {
  const out = ctx.out ?? writeStdout;
  const { ids, last } = parse(args);
  const { journal, projectRoot } = await projectJournal(ctx);
  if (!journal) throw new UsageError("there is no journal here, so no recorded run to recheck; runs are recorded when a model is configured");
  let runs: { run: RunRecord; recorded: RecordedCommand | { unusable: string } }[];
  try {
    const chosen = ids.length > 0 ? ids.map((id) => runById(journal, id)) : journal.runs.latestPerCommand(last).map((id) => runById(journal, id));
    runs = chosen.map((run) => ({ run, recorded: recordedCommand(run, projectRoot, ctx.ignoredSignals) }));
    // The default choice leaves out what cannot run again; runs named are reported either way.
    if (ids.length === 0) runs = runs.filter((entry) => !("unusable" in entry.recorded));
  } finally {
    journal.close();
  }
  if (runs.length === 0) throw new UsageError(`no recorded run to recheck in ${journal.file}; record runs first (aiython runs list shows them)`);
  protectHostStdio();
  const home = process.cwd();
  let allSame = true;
  for (const { run, recorded } of runs) {
    const { verdict, interrupted } = "unusable" in recorded ? { verdict: `cannot recheck: ${recorded.unusable}`, interrupted: null } : await recheck(run, recorded, ctx);
    process.chdir(home);
    if (interrupted) return interrupted; // Ctrl-C (or a signal sent to aiython) stops the whole recheck
    if (verdict !== "same") allSame = false;
    await out(`run ${run.id} ${scriptOf(run, projectRoot)}: ${verdict}\n`);
  }
  return { kind: "status", status: allSame ? 0 : 1 };
}

/** One run again, strictly replayed from its recording: its verdict, or the signal that interrupted it. */
async function recheck(run: RunRecord, again: RecordedCommand, ctx: RecheckContext): Promise<{ verdict: string; interrupted: RunOutcome | null }> {
  const { command, cwd } = again;
  let miss: ReplayMiss | null = null;
  await recordedConfig(run, again, ctx.env);
  Object.assign(command, {
    replay: { run: run.id, fill: false },
    journal: true,
    rerun: { kind: "recheck", from: run.id, missed: (first: ReplayMiss) => (miss ??= first) },
    stats: false,
    traceFile: null,
    approve: false,
    quiet: true,
  });
  process.chdir(cwd);
  const { startRun } = await import("../../run/start-run.js");
  let outcome: RunOutcome;
  try {
    outcome = await startRun(command);
  } catch (error) {
    // A run that cannot start now (its script is gone, its configuration is wrong) is its line, not the end of the recheck.
    if (isAiythonError(error)) return { verdict: `cannot recheck: ${error.message}`, interrupted: null };
    throw error;
  }
  if (outcome.kind === "signal" && INTERRUPTS.has(outcome.signal)) return { verdict: "interrupted", interrupted: outcome };
  const found = miss as ReplayMiss | null;
  // A block's file is project-relative already (the request's location, SPEC §5.1).
  if (found !== null) return { verdict: `diverged at ${found.block ?? "an unknown block"}: ${found.summary}`, interrupted: null };
  const now = outcome.kind === "status" ? String(outcome.status) : outcome.signal;
  const recorded = exitLabel(run);
  return { verdict: now === recorded ? "same" : `exit ${now}, recorded ${recorded}`, interrupted: null };
}

/** The run's program as a path relative to the project root (its -m, -c or - as recorded). */
function scriptOf(run: RunRecord, projectRoot: string): string {
  if (run.script.startsWith("-")) return run.script;
  const cwd = run.cwd === null ? projectRoot : path.resolve(projectRoot, run.cwd);
  const relative = path.relative(projectRoot, path.resolve(cwd, run.script));
  return relative.startsWith("..") ? path.resolve(cwd, run.script) : relative;
}

function parse(args: readonly string[]): { ids: number[]; last: number } {
  const command = quietCommand("aiython recheck").argument("[ids...]").option("--last <n>", "how many recorded command lines", String(DEFAULT_LAST));
  parseSubcommand(command, [...args], USAGE);
  const text = command.opts<{ last: string }>().last;
  const last = Number(text);
  if (!/^\d+$/.test(text) || last < 1) throw new UsageError(`--last takes a positive whole number, not '${text}': ${USAGE}`);
  return { ids: command.args.map((id) => runId(id, USAGE)), last };
}
