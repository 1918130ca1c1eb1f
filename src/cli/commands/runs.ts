// `aiython runs list` and `aiython runs show ID` (SPEC §11): read the project's journal and print
// recent runs, or one run — its command line, how it ended, its invocations with their costs and
// outcomes, its batches (§14), and effects left uncertain (§11.2). These are aiython's own reports, so they go to
// stdout. The journal is found as project-journal.ts finds it, and read even where it cannot be
// written.

import { journalPath, RUNS_LIST_DEFAULT_LIMIT, type BatchSummary, type EffectSummary, type InvocationSummary, type RunSummary } from "../../journal/index.js";
import { costCell, costLabel } from "../../observe/cost.js";
import { kilobytes, outcomeLabel, table } from "../../observe/stats-render.js";
import { UsageError } from "../../errors.js";
import { parseSubcommand, quietCommand } from "./subcommand-parse.js";
import type { RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";
import { commandLine, exitLabel, localTime, runLabel } from "./run-labels.js";
import { projectJournal, type ProjectContext } from "./project-journal.js";

export interface RunsContext extends ProjectContext {
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
  const { journal, projectRoot } = await projectJournal(ctx);
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
      const runs = journal.reads.list(options.limit);
      await out(options.json ? `${JSON.stringify(runs)}\n` : renderList(runs));
      return { kind: "status", status: 0 };
    }
    const run = journal.reads.get(options.id);
    if (!run) throw new UsageError(`no run ${options.id} in ${journal.file}; see aiython runs list`);
    const invocations = journal.reads.invocationsOf(run.id);
    const effects = journal.effects.of(run.id);
    const batches = journal.batches.of(run.id);
    await out(options.json ? `${JSON.stringify({ run, invocations, batches, effects })}\n` : renderShow(run, invocations, batches, effects));
    return { kind: "status", status: 0 };
  } finally {
    journal.close();
  }
}

function parse(action: "list" | "show", rest: string[]): { limit: number; id: number; json: boolean } {
  const command = quietCommand(`aiython runs ${action}`).option("--json", "print JSON");
  if (action === "list") command.option("--limit <n>", "how many runs", String(RUNS_LIST_DEFAULT_LIMIT));
  else command.argument("<id>", "run id from aiython runs list");
  parseSubcommand(command, rest, USAGE);
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
    runLabel(run),
    exitLabel(run),
    String(run.invocations),
    String(run.modelCalls),
    String(run.replayed),
    costCell(run.costUsd),
  ]);
  return `${table(["id", "started", "script", "exit", "invocations", "model calls", "replayed", "cost"], rows, 3).join("\n")}\n`;
}

function renderShow(run: RunSummary, invocations: InvocationSummary[], batches: BatchSummary[], effects: EffectSummary[]): string {
  const seconds = (value: number | null) => (value === null ? "?" : `${value.toFixed(3)} s`);
  const lines = [
    `run ${run.id}: ${runLabel(run)}`,
    ...(run.command_line ? [`  command: ${commandLine(run.command_line)}${run.cwd && run.cwd !== "." ? ` (in ${run.cwd})` : ""}`] : []),
    ...(run.interpreter || run.profile ? [`  ${[interpreterLabel(run), profileLabel(run)].filter(Boolean).join(", ")}`] : []),
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
  if (batches.length > 0) {
    const rows = batches.map((b) => [String(b.number), b.kind, b.providerId ?? "(not submitted)", b.status, String(b.requests)]);
    lines.push(...table(["batch", "kind", "provider id or file", "status", "requests"], rows, 4));
  }
  lines.push(...uncertainLines(run, effects));
  return `${lines.join("\n")}\n`;
}

/** Effects the run started and never saw end (when it did not end normally), and those it did not run again (SPEC §11.2). */
function uncertainLines(run: RunSummary, effects: EffectSummary[]): string[] {
  const cutShort = run.ended_how !== "exit";
  return effects.flatMap((effect) => {
    const where = `${effect.tool} at ${effect.block ?? "?"} (call ${effect.callId})`;
    if (effect.status === "uncertain") return [`  uncertain: ${where}, started by run ${run.resumed_from ?? "?"} and never seen to end: not run again`];
    if (effect.status === "started" && cutShort) return [`  uncertain: ${where}, started and never seen to end`];
    return [];
  });
}

function interpreterLabel(run: RunSummary): string {
  return run.interpreter ? `python ${run.interpreter.version} (${run.interpreter.executable})` : "";
}

function profileLabel(run: RunSummary): string {
  return run.profile ? `profile ${run.profile.name}${run.profile.route ? ` (${run.profile.route})` : ""}` : "";
}
