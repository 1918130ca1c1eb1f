// A batch a run was submitting when it ended (SPEC §14): journaled with a token and, once
// uploaded, its input file, but without the provider's id — the run was killed between the
// upload and the answer to POST /batches. The provider may have created it all the same, and a
// second submission would be paid twice. So every batch is created with metadata naming it, and a
// resumed run first looks for the provider's batch with that token (GET /batches), then creates
// it from the uploaded file under the same token, and only when both fail submits the requests anew.

import type { CarryingBatch } from "../journal/index.js";
import type { BatchApi } from "./batch-api.js";

/** What recovery writes to the journal (offload.ts's BatchJournal). */
interface RecoveryJournal {
  submitted(row: number, providerId: string): Promise<void>;
  ended(row: number, ok: boolean): void;
}

/** The metadata key of a batch's token. */
export const TOKEN_KEY = "aiython_token";

/** A batch's metadata: the run (when recorded), the batch's number in it, and its token. */
export function batchMetadata(runId: number | null, number: number, token: string): Record<string, string> {
  return { ...(runId === null ? {} : { aiython_run: String(runId) }), aiython_batch: String(number), [TOKEN_KEY]: token };
}

export interface Recovered {
  providerId: string;
  /** Created now from the uploaded file (not found at the provider). */
  created: boolean;
}

/**
 * The provider's batch of a journaled batch that was still `submitting` (journaled as submitted),
 * or null: then it is marked failed, never looked for again, and its requests go into a new batch.
 */
export async function recoverBatch(batch: CarryingBatch, api: BatchApi, journal: RecoveryJournal): Promise<Recovered | null> {
  let recovered: Recovered | null = null;
  try {
    const token = batch.token as string;
    const found = await api.find(TOKEN_KEY, token);
    if (found) recovered = { providerId: found, created: false };
    else if (batch.fileId) recovered = { providerId: await api.create(batch.fileId, batchMetadata(batch.runId, batch.number, token)), created: true };
  } catch {
    recovered = null; // the provider cannot say, or the file is gone: the requests go anew
  }
  if (recovered) await journal.submitted(batch.id, recovered.providerId);
  else journal.ended(batch.id, false);
  return recovered;
}
