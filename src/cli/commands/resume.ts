// `aiython resume [RUN_ID] [--force]` (SPEC §11.2): run a recorded run's command line again, in
// its folder, with its interpreter and profile, from the start, answering its AI requests from
// that run in order and sending only what it never got an answer for (`--replay=RUN_ID,fill`).
// Without an id: the most recent run of the project that did not end normally, is not still
// running and has not been resumed to its end since. Before anything runs, the digests of its source files, its interpreter and its model
// are compared with what it recorded: a change is named and the resume refused (exit 2) unless
// `--force`. Effects its tool calls started and never saw end are named (`aiython: uncertain:`)
// and not run again (run/effect-journal.ts).

import fs from "node:fs";
import path from "node:path";
import { UsageError, type RunOutcome } from "../../errors.js";
import { parseSubcommand, quietCommand } from "./subcommand-parse.js";
import type { Journal, RunRecord } from "../../journal/index.js";
import { digestOf } from "../../observe/source-digests.js";
import { protectHostStdio } from "../host-stdio.js";
import { projectJournal, type ProjectContext } from "./project-journal.js";
import { recordedCommand, recordedConfig, runById, runId } from "./recorded-command.js";
import { commandLine } from "./run-labels.js";

const USAGE = "aiython resume [RUN_ID] [--force]";
/** How many unfinished runs are looked at for one that is not running any more. */
const UNFINISHED_SCAN = 50;

export interface ResumeContext extends ProjectContext {
  ignoredSignals: readonly number[];
  warn: (line: string) => void;
}

export async function resumeCommand(args: readonly string[], ctx: ResumeContext): Promise<RunOutcome> {
  const { id, force } = parse(args);
  const { journal, projectRoot } = await projectJournal(ctx);
  if (!journal) throw new UsageError("there is no journal here, so no run to resume; runs are recorded when a model is configured");
  let run: RunRecord;
  let uncertain: string[];
  try {
    run = id === null ? unfinishedRun(journal) : runById(journal, id);
    uncertain = journal.effects
      .of(run.id)
      .filter((effect) => effect.status !== "ended")
      .map((effect) => `${effect.tool} at ${effect.block ?? "?"} (call ${effect.callId})`);
  } finally {
    journal.close();
  }
  const recorded = recordedCommand(run, projectRoot, ctx.ignoredSignals);
  if ("unusable" in recorded) throw new UsageError(`cannot resume: ${recorded.unusable}`);
  const { command, cwd } = recorded;
  const config = await recordedConfig(run, recorded, ctx.env);
  const route = config.profiles.get(config.forcedProfile ?? config.defaultProfile)?.routes[0]?.id ?? null;
  const recordedRoute = run.profile?.route ?? null;
  const interpreter = run.interpreter?.executable ?? null;
  if (command.python === undefined && interpreter !== null && fs.existsSync(interpreter)) command.python = interpreter;
  const changes = [
    ...changedFiles(run, projectRoot),
    ...(interpreter !== null && command.python === undefined ? [`its interpreter ${interpreter} (gone)`] : []),
    ...(config.modelConfigured && recordedRoute !== null && route !== recordedRoute ? [`its model (recorded ${recordedRoute}, now ${route})`] : []),
  ];
  if (changes.length > 0 && !force) {
    throw new UsageError(
      `run ${run.id} changed since it ran: ${changes.join(", ")}; resume anyway with aiython resume ${run.id} --force (recorded answers are used where the requests still match), or run it anew`,
    );
  }
  ctx.warn(`resuming run ${run.id}: ${commandLine(run.command_line ?? [])}${changes.length > 0 ? ` (changed: ${changes.join(", ")})` : ""}`);
  for (const effect of uncertain) ctx.warn(`uncertain: ${effect} was started by run ${run.id} and never seen to end; it is not run again`);
  Object.assign(command, { replay: { run: run.id, fill: true }, journal: true, rerun: { kind: "resume", from: run.id } });
  protectHostStdio();
  process.chdir(cwd);
  const { startRun } = await import("../../run/start-run.js");
  return startRun(command);
}

function parse(args: readonly string[]): { id: number | null; force: boolean } {
  const command = quietCommand("aiython resume").argument("[id]").option("--force", "resume even when the source changed");
  parseSubcommand(command, [...args], USAGE);
  const [text] = command.args;
  return { id: text === undefined ? null : runId(text, USAGE), force: Boolean(command.opts<{ force?: boolean }>().force) };
}

/** The most recent run that did not end normally and is not running now. */
function unfinishedRun(journal: Journal): RunRecord {
  const candidates = journal.runs.unfinished(UNFINISHED_SCAN);
  const done = candidates.find((run) => run.endedAt !== null || !running(run.pid));
  if (!done) {
    const busy = candidates[0];
    throw new UsageError(
      busy
        ? `run ${busy.id} has not ended yet (process ${busy.pid} is running); name a run to resume: ${USAGE}`
        : "there is nothing to resume: every recorded run ended normally or was resumed since (aiython runs list shows them; aiython resume RUN_ID runs one again)",
    );
  }
  return runById(journal, done.id);
}

/** Whether a process is alive: one that has died but is not yet reaped (a zombie, on Linux) is not. */
function running(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** The recorded source files whose bytes are not what the run read, as "path (changed)" or "path (gone)". */
function changedFiles(run: RunRecord, projectRoot: string): string[] {
  return run.files.flatMap((file) => {
    const now = digestOf(path.resolve(projectRoot, file.path));
    if (now === file.sha256) return [];
    return [`${file.path} (${now === null ? "gone" : "changed"})`];
  });
}
