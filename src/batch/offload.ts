// The run's batch offload (SPEC §14): model requests of every block, from every thread, task and
// process, are gathered per route (gatherer.ts), split within the providers' limits, journaled
// with the requests they carry, and submitted — to the route's Batch API (batch-api.ts, then
// watched: watcher.ts), or written to a folder for an engine without one (dir-batch.ts), which
// ends the run with exit 76 until `aiython resume` reads the results. A resumed run first looks
// each request up in the journal and re-attaches to the batch that carries it, so the same
// requests are never submitted twice — not even a batch the run was killed submitting (recover.ts).

import { ExitStatus, UsageError } from "../errors.js";
import type { BatchEntry, CarryingBatch } from "../journal/index.js";
import { BatchApi, BatchUnsupportedError, type BatchRoute } from "./batch-api.js";
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { requestLine, type LineResult } from "./batch-lines.js";
import { missingResultsMessage, moveRequests, readDirResults, requestsFile, waitMessage } from "./dir-batch.js";
import { Gatherer, type Pending, type Spooled } from "./gatherer.js";
import type { BatchProgress } from "./progress.js";
import { batchMetadata, recoverBatch } from "./recover.js";
import { Watcher } from "./watcher.js";
import type { StopSignal } from "../stop-signal.js";

/** The OpenAI Batch API's limit on the size of one input file. */
export const MAX_BATCH_BYTES = 200 * 1024 * 1024;
/** How long after the last `dir:` batch was written the run stops to wait for them. */
const DIR_SETTLE_MS = 50;
const NO_JOURNAL = new UsageError("--batch=dir:PATH needs the journal to go on later, and this run is not recorded (journal = false, --no-journal, or it could not be written)")
  .message;

/**
 * The batches' side of the run's journal: a batch and the requests it carries are written before
 * it is submitted, its provider id once accepted, and how it ended; a resumed run finds the batch
 * that carries a request. Without a journal nothing is kept and nothing is found: the run still
 * batches, it just cannot re-attach.
 */
export interface BatchJournal {
  /** Writes the batch before it is submitted: its row and the run's id, or null when nothing is recorded. */
  add(entry: BatchEntry): Promise<{ row: number; runId: number } | null>;
  /** The batch's input file, once uploaded. */
  uploaded(row: number, fileId: string): Promise<void>;
  submitted(row: number, providerId: string): Promise<void>;
  ended(row: number, ok: boolean): void;
  /** The batch a resumed run re-attaches to for this request, or null. */
  carrying(key: string, occurrence: number): Promise<CarryingBatch | null>;
  /** This run's id in the journal, or null when it is not recorded. */
  runId(): Promise<number | null>;
}

export interface OffloadSettings {
  windowMs: number;
  pollMs: number;
  maxRequests: number;
  /** `--batch=dir:PATH` (absolute), else null. */
  dir: string | null;
  /** A resumed run: re-attach to the batches that carry its requests. */
  attach: boolean;
}

export interface OffloadDeps {
  journal: BatchJournal;
  progress: BatchProgress;
  /** Ends the run with this message (the CLI prefixes `aiython: `) and exit status. */
  stop(message: string, status: number): void;
  /** Names a file for messages. */
  shown(file: string): string;
}

export interface BatchAsk {
  route: BatchRoute;
  /** The request's body as the live client would post it (batch-lines.ts lineBody). */
  body: string;
  key: string;
  occurrence: number;
}

export class BatchOffload {
  private readonly gatherers = new Map<string, Gatherer>();
  private readonly watchers = new Map<string, Watcher>();
  private readonly apis = new Map<string, BatchApi>();
  private readonly dirResults = new Map<string, Map<string, LineResult>>();
  /** Journaled batches found (or created again) at the provider by a resumed run, by row. */
  private readonly recoveries = new Map<number, Promise<string | null>>();
  private customIds = 0;
  /** `dir:` batches are written one after another; what the run says when it stops for them. */
  private dirQueue: Promise<void> = Promise.resolve();
  private readonly waiting: string[] = [];
  private waitTimer: NodeJS.Timeout | undefined;
  private numbers = 0;
  private stopped = false;
  /** Batches this run submitted to a Batch API. */
  submissions = 0;

  constructor(
    private readonly settings: OffloadSettings,
    private readonly deps: OffloadDeps,
  ) {}

  /** The line of this request: from a batch a resumed run re-attaches to (`first` send only), else from the next batch. */
  ask(ask: BatchAsk, first: boolean, signal?: StopSignal): Promise<LineResult> {
    if (first && this.settings.attach) return this.attached(ask).then((attached) => attached ?? this.gather(ask, signal));
    return this.gather(ask, signal);
  }

  /** Into the route's next batch. Nothing of the request is kept here once its line is written: no closure sees `ask`. */
  private gather(ask: BatchAsk, signal: StopSignal | undefined): Promise<LineResult> {
    const customId = `req-${++this.customIds}`;
    let settle: (result: LineResult) => void = () => undefined;
    const answer = new Promise<LineResult>((resolve) => (settle = resolve));
    const pending: Pending = { customId, key: ask.key, occurrence: ask.occurrence, settle };
    const gatherer = this.gathererOf(ask.route);
    gatherer.add(pending, requestLine(customId, ask.body));
    if (signal) cancelOnAbort(signal, gatherer, pending);
    return answer;
  }

  close(): void {
    clearTimeout(this.waitTimer);
    for (const gatherer of this.gatherers.values()) gatherer.close();
    for (const watcher of this.watchers.values()) watcher.close();
    this.deps.progress.close();
  }

  private gathererOf(route: BatchRoute): Gatherer {
    let gatherer = this.gatherers.get(route.id);
    if (!gatherer) {
      const { windowMs, maxRequests } = this.settings;
      gatherer = new Gatherer(windowMs, { maxRequests, maxBytes: MAX_BATCH_BYTES }, (batch) => this.handOn(route, batch));
      this.gatherers.set(route.id, gatherer);
    }
    return gatherer;
  }

  private handOn(route: BatchRoute, batch: Spooled): void {
    if (this.settings.dir !== null) this.dirQueue = this.dirQueue.then(() => this.writeDir(route, batch, this.settings.dir as string));
    else void this.submit(route, batch);
  }

  private async submit(route: BatchRoute, { file, pendings: chunk }: Spooled): Promise<void> {
    const number = ++this.numbers;
    const token = randomUUID();
    const journaled = await this.deps.journal.add({ number, kind: "api", route: route.id, place: route.apiBase, token, requests: carried(chunk) });
    const api = this.apiOf(route);
    let providerId: string;
    try {
      const fileId = await api.upload(file, `aiython-batch-${number}.jsonl`);
      if (journaled) await this.deps.journal.uploaded(journaled.row, fileId);
      providerId = await api.create(fileId, batchMetadata(journaled?.runId ?? null, number, token));
      this.submissions += 1;
    } catch (error) {
      if (journaled) this.deps.journal.ended(journaled.row, false);
      if (error instanceof BatchUnsupportedError) return this.stop(error.message, ExitStatus.config);
      for (const pending of chunk) pending.settle({ ok: false, reason: (error as Error).message });
      return;
    } finally {
      fs.rmSync(file, { force: true });
    }
    if (journaled) await this.deps.journal.submitted(journaled.row, providerId);
    const watcher = this.watch(providerId, journaled?.row ?? null, number, chunk.length, api);
    for (const pending of chunk) watcher.claim(pending.customId, pending.settle);
  }

  private watch(providerId: string, row: number | null, number: number, total: number, api: BatchApi): Watcher {
    let watcher = this.watchers.get(providerId);
    if (!watcher) {
      const ended = (ended: number | null, ok: boolean) => ended !== null && this.deps.journal.ended(ended, ok);
      watcher = new Watcher({ providerId, row, number, total }, api, this.settings.pollMs, this.deps.progress, ended);
      this.watchers.set(providerId, watcher);
    }
    return watcher;
  }

  /**
   * `--batch=dir:PATH`: the batch becomes its requests file, and the run stops to wait (exit 76)
   * once the batches gathered so far are written (more than one when the limits split them).
   */
  private async writeDir(route: BatchRoute, { file: spool, pendings }: Spooled, dir: string): Promise<void> {
    if (this.stopped) return;
    const number = ++this.numbers;
    const journaled = await this.deps.journal.add({ number, kind: "dir", route: route.id, place: dir, requests: carried(pendings) });
    if (!journaled) return this.stop(NO_JOURNAL, ExitStatus.usage);
    const file = requestsFile(dir, journaled.runId, number);
    const problem = moveRequests(spool, file);
    if (problem) return this.stop(problem, ExitStatus.usage);
    await this.deps.journal.submitted(journaled.row, file);
    this.waiting.push(waitMessage(file, route.model, journaled.runId, pendings.length, this.deps.shown));
    clearTimeout(this.waitTimer);
    // Batches split by the limits are handed on together: stop once none has come for a moment.
    this.waitTimer = setTimeout(() => this.stop(this.waiting.join("\n"), ExitStatus.batchWait), DIR_SETTLE_MS);
  }

  /** A resumed run's request that a journaled batch carries: its line (waiting for the batch if it is still in flight), or null. */
  private async attached(ask: BatchAsk): Promise<LineResult | null> {
    const carrying = await this.deps.journal.carrying(ask.key, ask.occurrence);
    if (!carrying) return null;
    if (carrying.kind === "dir") {
      if (!carrying.providerId) return null;
      const results = this.dirResults.get(carrying.providerId) ?? readDirResults(carrying.providerId);
      if (!results) {
        const runId = (await this.deps.journal.runId()) ?? carrying.runId;
        this.stop(missingResultsMessage(carrying.providerId, ask.route.model, runId, this.deps.shown), ExitStatus.batchWait);
        return new Promise(() => undefined); // the run is ending
      }
      this.dirResults.set(carrying.providerId, results);
      return results.get(carrying.customId) ?? { ok: false, reason: "the results file has no answer for it" };
    }
    if (carrying.place !== ask.route.apiBase) return null;
    const providerId = carrying.providerId ?? (await this.recovered(carrying, ask.route));
    if (!providerId) return null;
    const watcher = this.watch(providerId, carrying.id, carrying.number, 0, this.apiOf(ask.route));
    return new Promise((settle) => watcher.claim(carrying.customId, settle));
  }

  /** A batch the run was killed submitting: the provider's id of it, looked for once for all its requests. */
  private recovered(carrying: CarryingBatch, route: BatchRoute): Promise<string | null> {
    let found = this.recoveries.get(carrying.id);
    if (!found) {
      found = recoverBatch(carrying, this.apiOf(route), this.deps.journal).then((recovered) => {
        if (recovered?.created) this.submissions += 1;
        return recovered?.providerId ?? null;
      });
      this.recoveries.set(carrying.id, found);
    }
    return found;
  }

  private apiOf(route: BatchRoute): BatchApi {
    let api = this.apis.get(route.id);
    if (!api) this.apis.set(route.id, (api = new BatchApi(route)));
    return api;
  }

  private stop(message: string, status: number): void {
    if (this.stopped) return;
    this.stopped = true;
    this.deps.progress.close();
    this.deps.stop(message, status);
  }
}

function cancelOnAbort(signal: StopSignal, gatherer: Gatherer, pending: Pending): void {
  signal.addEventListener("abort", () => gatherer.remove(pending) && pending.settle({ ok: false, reason: "cancelled" }), { once: true });
}

function carried(chunk: readonly Pending[]) {
  return chunk.map((p) => ({ customId: p.customId, key: p.key, occurrence: p.occurrence }));
}
