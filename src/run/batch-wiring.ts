// Batch offload in a run (SPEC §14): on with `--batch` or `[batch] enabled = true` (the run's
// profile's settings). One offload serves the whole run — every profile, thread, task and process
// — and each profile's live model becomes a batch port on its primary route, with the live
// client kept for `--batch=fallback-live`. The run is told to stop when a batch waits in a folder
// (exit 76) or the server has no Batch API. Loaded only when batching is on.

import path from "node:path";
import type { ProfileSettings, ResolvedConfig } from "../config/index.js";
import type { ModelPort } from "../model-port.js";
import type { JournalSession } from "../observe/journal-session.js";
import { batchPort } from "../batch/batch-port.js";
import { BatchOffload, type BatchJournal } from "../batch/offload.js";
import { BatchProgress } from "../batch/progress.js";
import { missingKeyReason, refusingModel } from "./missing-key.js";
import type { RunCommand } from "./run-command.js";

export interface RunBatch {
  offload: BatchOffload;
  /** The profile's live model in batch mode; `client` makes the live client (for fallback-live). */
  portFor(profile: ProfileSettings, client: () => ModelPort): ModelPort;
}

export function runBatch(command: RunCommand, config: ResolvedConfig, session: JournalSession | null, stop: (message: string, status: number) => void): RunBatch {
  const settings = config.profiles.get(config.forcedProfile ?? config.defaultProfile)?.batch;
  const choice = command.batch ?? { fallbackLive: false, dir: null };
  const cwd = process.cwd();
  const offload = new BatchOffload(
    {
      windowMs: (settings?.windowSeconds ?? 2) * 1000,
      pollMs: (settings?.pollSeconds ?? 30) * 1000,
      maxRequests: settings?.maxRequests ?? 50_000,
      dir: choice.dir === null ? null : path.resolve(cwd, choice.dir),
      attach: command.rerun?.kind === "resume",
    },
    { journal: sessionBatchJournal(session), progress: new BatchProgress(), stop, shown: (file) => shownPath(file, cwd) },
  );
  return {
    offload,
    portFor(profile, client) {
      const missing = missingKeyReason(profile);
      if (missing) return refusingModel(missing);
      const { id, model, apiBase, apiKey, apiKeyEnv } = profile.routes[0];
      let live: ModelPort | null = null;
      const fallbackLive = choice.fallbackLive ? () => (live ??= client()) : null;
      return batchPort(offload, { id, model, apiBase, apiKey, apiKeyEnv }, { fallbackLive });
    },
  };
}

/** The batches' side of the run's journal session (SPEC §14: journaled before they are submitted). */
function sessionBatchJournal(session: JournalSession | null): BatchJournal {
  return {
    add: async (entry) => (await session?.writeNow((journal, runId) => ({ row: journal.batches.add(runId, entry, new Date()), runId }))) ?? null,
    uploaded: async (row, fileId) => void (await session?.writeNow((journal) => journal.batches.uploaded(row, fileId, new Date()))),
    submitted: async (row, providerId) => void (await session?.writeNow((journal) => journal.batches.submitted(row, providerId, new Date()))),
    ended: (row, ok) => void session?.writeNow((journal) => journal.batches.ended(row, ok ? "completed" : "failed", new Date())),
    carrying: async (key, occurrence) => (await session?.readNow((journal) => journal.batches.carrying(key, occurrence))) ?? null,
    runId: async () => (await session?.writeNow((_journal, runId) => runId)) ?? null,
  };
}

function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}
