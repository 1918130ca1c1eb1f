// The batches' side of the run's journal (SPEC §14), over the journal session: a batch and the
// requests it carries are written before it is submitted, its provider id once accepted, and how
// it ended; a resumed run finds the batch that carries a request. Without a journal (off, or it
// failed) nothing is kept and nothing is found: the run still batches, it just cannot re-attach.

import type { BatchEntry, CarryingBatch } from "../journal/index.js";
import type { JournalSession } from "../observe/journal-session.js";

export interface BatchJournal {
  /** Writes the batch before it is submitted: its row and the run's id, or null when nothing is recorded. */
  add(entry: BatchEntry): Promise<{ row: number; runId: number } | null>;
  submitted(row: number, providerId: string): Promise<void>;
  ended(row: number, ok: boolean): void;
  /** The batch a resumed run re-attaches to for this request, or null. */
  carrying(key: string, occurrence: number): Promise<CarryingBatch | null>;
  /** This run's id in the journal, or null when it is not recorded. */
  runId(): Promise<number | null>;
}

export function sessionBatchJournal(session: JournalSession | null): BatchJournal {
  return {
    add: async (entry) => (await session?.writeNow((journal, runId) => ({ row: journal.batches.add(runId, entry, new Date()), runId }))) ?? null,
    submitted: async (row, providerId) => void (await session?.writeNow((journal) => journal.batches.submitted(row, providerId, new Date()))),
    ended: (row, ok) => void session?.writeNow((journal) => journal.batches.ended(row, ok ? "completed" : "failed", new Date())),
    carrying: async (key, occurrence) => (await session?.readNow((journal) => journal.batches.carrying(key, occurrence))) ?? null,
    runId: async () => (await session?.writeNow((_journal, runId) => runId)) ?? null,
  };
}
