// `aiython runs list` and `aiython runs show ID` (SPEC §11): read the project's journal and print
// recent runs, or one run's invocations with their costs and outcomes. These are aiython's own
// reports, so they go to stdout. The journal is found like a run finds it: the folder of the
// nearest aiython.toml; without one, the nearest folder at or above the working directory that
// holds `.aiython/aiython.sqlite` (searched the way aiython.toml is), else the working directory.

import { Command, CommanderError } from "commander";
import { loadConfig } from "../../config/index.js";
import { journalPath, nearestJournalRoot, openJournal, RUNS_LIST_DEFAULT_LIMIT, type InvocationSummary, type Journal, type RunSummary } from "../../journal/index.js";
import { JournalUnavailableError } from "../../journal/index.js";
import { costCell, costLabel } from "../../observe/cost.js";
import { kilobytes, outcomeLabel, table } from "../../observe/stats-render.js";
import { UsageError } from "../../errors.js";
import type { RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";

export interface RunsContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  /** Where the report goes; default stdout, in one write with the EPIPE guard. */
  out?: (text: string) => void | Promise<void>;
}

const USAGE = "aiython runs list [--limit N] [--json] | aiython runs show ID [--json]";

export async function runRunsCommand(args: readonly string[], ctx: RunsContext): Promise<RunOutcome> {
  const out = ctx.out ?? writeStdout;
  const [action, ...rest] = args;
  if (action !== "list" && action !== "show") {
    throw new UsageError(action === undefined ? `runs needs list or show: ${USAGE}` : `unknown runs command '${action}': ${USAGE}`);
  }
  const options = parse(action, rest);
  const config = await loadConfig({ scriptPath: null, cwd: ctx.cwd, configFile: ctx.configFile, env: ctx.env });
  const projectRoot = config.path === null ? (nearestJournalRoot(ctx.cwd) ?? config.projectRoot) : config.projectRoot;
  let journal: Journal | null;
  try {
    journal = await openJournal({ projectRoot, cwd: ctx.cwd, create: false });
  } catch (error) {
    if (error instanceof JournalUnavailableError) throw new UsageError(`cannot read the journal: ${error.message}`);
    throw error;
  }
  if (!journal) {
    await out(
      options.json
        ? "[]\n"
        : `no runs recorded yet (no journal at ${journalPath(projectRoot)}; runs are recorded when a model is configured, next to the script's aiython.toml or else in the script's folder: run this there)\n`,
    );
    return { kind: "status", status: 0 };
  }
  try {
    if (action === "list") {
      const runs = journal.listRuns(options.limit);
      await out(options.json ? `${JSON.stringify(runs)}\n` : renderList(runs));
      return { kind: "status", status: 0 };
    }
    const run = journal.getRun(options.id);
    if (!run) throw new UsageError(`no run ${options.id} in ${journal.file}; see aiython runs list`);
    const invocations = journal.invocationsOf(run.id);
    await out(options.json ? `${JSON.stringify({ run, invocations })}\n` : renderShow(run, invocations));
    return { kind: "status", status: 0 };
  } finally {
    journal.close();
  }
}

function parse(action: "list" | "show", rest: string[]): { limit: number; id: number; json: boolean } {
  const command = new Command(`aiython runs ${action}`)
    .option("--json", "print JSON")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined, outputError: () => undefined });
  if (action === "list") command.option("--limit <n>", "how many runs", String(RUNS_LIST_DEFAULT_LIMIT));
  else command.argument("<id>", "run id from aiython runs list");
  try {
    command.parse(rest, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) throw new UsageError(`${error.message.replace(/^error: /, "")}: ${USAGE}`);
    throw error;
  }
  const opts = command.opts<{ json?: boolean; limit?: string }>();
  const limit = Number(opts.limit ?? RUNS_LIST_DEFAULT_LIMIT);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit takes a positive whole number, not '${opts.limit}'`);
  const idText = command.args[0];
  const id = action === "show" ? Number(idText) : 0;
  if (action === "show" && (!/^\d+$/.test(idText) || !Number.isSafeInteger(id))) {
    throw new UsageError(`run ids are whole numbers, not '${idText}'; see aiython runs list`);
  }
  return { limit, id, json: Boolean(opts.json) };
}

function renderList(runs: RunSummary[]): string {
  if (runs.length === 0) return "no runs recorded yet\n";
  const rows = runs.map((run) => [
    String(run.id),
    localTime(run.startedAt),
    run.replay ? `${run.script} (replay)` : run.script,
    exitLabel(run),
    String(run.invocations),
    String(run.modelCalls),
    String(run.replayed),
    costCell(run.costUsd),
  ]);
  return `${table(["id", "started", "script", "exit", "invocations", "model calls", "replayed", "cost"], rows, 3).join("\n")}\n`;
}

function renderShow(run: RunSummary, invocations: InvocationSummary[]): string {
  const seconds = (value: number | null) => (value === null ? "?" : `${value.toFixed(3)} s`);
  const lines = [
    `run ${run.id}: ${run.script}${run.replay ? " (replay)" : ""}`,
    `  started ${localTime(run.startedAt)}, ${run.endedAt ? `ended ${localTime(run.endedAt)}` : "did not record its end"}, exit ${exitLabel(run)}`,
    `  time: total ${seconds(run.totalSeconds)}, parse ${seconds(run.parseSeconds)}, prepare ${seconds(run.prepareSeconds)}, execution ${seconds(run.executionSeconds)}`,
    `  ${invocations.length} AI invocation${invocations.length === 1 ? "" : "s"}, ${run.modelCalls} model calls` +
      `${run.replayed > 0 ? ` (${run.replayed} replayed)` : ""}, ${run.toolCalls} tool calls, ${kilobytes(run.requestBytes)} sent, ` +
      `${run.totalTokens} tokens, ${costLabel(run.costUsd, run.unpricedRoutes)}`,
  ];
  if (invocations.length > 0) {
    const rows = invocations.map((inv) => [
      `${inv.file}:${inv.line}`,
      inv.mode,
      inv.missingCapability ? `${outcomeLabel(inv)} (needs ${inv.missingCapability})` : outcomeLabel(inv),
      String(inv.counters.model_calls),
      String(inv.counters.replayed),
      String(inv.counters.tool_calls),
      kilobytes(inv.counters.request_bytes),
      String(inv.counters.token_usage.total_tokens),
      costCell(inv.counters.cost_usd),
      String(inv.counters.tool_failures + inv.counters.invalid_batches + inv.counters.empty_responses),
      inv.counters.invocation_seconds.toFixed(3),
    ]);
    lines.push(...table(["block", "mode", "outcome", "model calls", "replayed", "tool calls", "request", "tokens", "cost", "problems", "seconds"], rows, 3));
  }
  return `${lines.join("\n")}\n`;
}

function exitLabel(run: RunSummary): string {
  if (run.exitSignal) return run.exitSignal;
  if (run.exitStatus !== null) return String(run.exitStatus);
  return run.endedAt ? "?" : "-";
}

/** "2025-11-29 10:14:02" in the local time zone. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
