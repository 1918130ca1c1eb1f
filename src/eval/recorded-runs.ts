// The journal's side of `aiython eval`: after the runs, each run's id (its recorded command line
// names its own trace file, which no other run names), and the record of which runs an eval made,
// by program and repetition, in `.aiython/eval-runs.json` of the folder evaluated, so that
// `aiython eval --replay` replays the k-th run of each program from the k-th recorded one.

import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../config/index.js";
import { JOURNAL_DIR, nearestJournalRoot, openJournal, type Journal } from "../journal/index.js";
import type { EvalProgram } from "./manifest.js";

const RECORD = "eval-runs.json";

/** The journal ids of the runs whose command lines name these trace files, in their order (null: not found). */
export async function runIdsOf(program: EvalProgram, traces: string[], env: NodeJS.ProcessEnv, configFile?: string): Promise<(number | null)[]> {
  const found = await withJournal(program, env, configFile, (journal) => {
    const runs = journal.reads.list(traces.length * 4 + 50);
    return traces.map((trace) => runs.find((run) => run.command_line?.includes(trace))?.id ?? null);
  });
  return found ?? traces.map(() => null);
}

/** What the recorded runs cost (SPEC §13), as the journal kept it: a replay reports the cost of the runs it replays. */
export async function recordedCost(program: EvalProgram, ids: readonly number[], env: NodeJS.ProcessEnv, configFile?: string): Promise<number | null> {
  const found = await withJournal(program, env, configFile, (journal) =>
    ids.reduce<number | null>((sum, id) => {
      const cost = journal.reads.get(id)?.costUsd ?? null;
      return sum === null || cost === null ? null : sum + cost;
    }, 0),
  );
  return found ?? null;
}

async function withJournal<T>(program: EvalProgram, env: NodeJS.ProcessEnv, configFile: string | undefined, read: (journal: Journal) => T): Promise<T | null> {
  const cwd = path.dirname(program.file);
  const config = await loadConfig({ scriptPath: program.file, cwd, configFile, env });
  const root = config.path === null ? (nearestJournalRoot(cwd) ?? config.projectRoot) : config.projectRoot;
  let journal: Awaited<ReturnType<typeof openJournal>>;
  try {
    journal = await openJournal({ projectRoot: root, cwd, create: false });
  } catch {
    return null;
  }
  if (!journal) return null;
  try {
    return read(journal);
  } finally {
    journal.close();
  }
}

type SavedIds = Record<string, (number | null)[]>;

const keyOf = (program: EvalProgram) => JSON.stringify([program.file, program.args]);

function recordFile(folder: string): string {
  return path.join(folder, JOURNAL_DIR, RECORD);
}

function readRecord(folder: string): SavedIds {
  try {
    return JSON.parse(fs.readFileSync(recordFile(folder), "utf8")) as SavedIds;
  } catch {
    return {};
  }
}

/** Keeps the run ids of this eval's programs (a later eval of the same program replaces them). */
export function saveRunIds(folder: string, ids: Map<EvalProgram, (number | null)[]>): void {
  const record = readRecord(folder);
  for (const [program, runIds] of ids) record[keyOf(program)] = runIds;
  try {
    fs.mkdirSync(path.dirname(recordFile(folder)), { recursive: true });
    fs.writeFileSync(recordFile(folder), `${JSON.stringify(record, null, 1)}\n`);
  } catch {
    // An eval whose folder cannot be written still reports; only its --replay has nothing to go on.
  }
}

/** The recorded run ids of a program's last eval, by repetition; empty when there is none. */
export function recordedRunIds(folder: string, program: EvalProgram): (number | null)[] {
  return readRecord(folder)[keyOf(program)] ?? [];
}
