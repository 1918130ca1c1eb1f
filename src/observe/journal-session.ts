// This run's use of the journal (SPEC §11), on JournalConnection (journal-connection.ts: the open,
// the queued writes, the failure). Rows are queued and written in batches
// (journal-writes.ts); the database opens when the first batch holding a model exchange is
// written, or at the first lookup, never between an answer and the program's next step. A run
// that records gets its row then: at its first recorded answer, or (a replay, resume or recheck)
// at its first lookup; the rows that belong to it (invocations, file digests) wait in memory until
// it has one. A run in which no model answered (none was reached, or none could be: an
// unreachable server) writes nothing and leaves no `.aiython/` behind, as python3 would not —
// unless a signal ended it while invocations ran: that run is recorded, with its signal. Writes go
// in order, after the open; a read and the run's end write what is pending first. Anything that
// goes wrong — the journal cannot be opened, or a write fails later — prints one `aiython: journal
// disabled: …` line and the run goes on unrecorded: the journal never costs the program its
// output. A replay whose journal can only be read (a read-only folder) reads it and records
// nothing, with one line saying so. The journal's code and SQLite are imported when a profile that
// records makes its model port (`warmUp`: while the program runs up to its first block) or at the
// open, so a run without blocks or failures never loads them.
//
// Replay's bookkeeping lives here because it is the run's, not a profile's: the occurrence of each
// request key (counted when the request is made, SPEC §11.1), each answer's place in the run's
// order (`seq`), the source run, and for a resume the source's effects that never ended (§11.2).

import type { EffectEntry, InvocationEntry } from "../journal/index.js";
import type { ExchangeRef } from "../model-port.js";
import { REPLAY_MISS_CANDIDATES } from "../defaults.js";
import { JournalConnection } from "./journal-connection.js";
import type { ExchangeSink, ExchangeToRecord } from "./recording-model.js";
import type { RecordedRequest } from "./replay-miss.js";
import type { ReplayAnswer, ReplayedExchange, ReplaySource } from "./replaying-model.js";

export type { JournalSessionOptions } from "./journal-open.js";

export class JournalSession extends JournalConnection implements ExchangeSink, ReplaySource {
  private seq = 0;
  private readonly occurrences = new Map<string, number>();

  /** Loads the journal's code and SQLite now, ahead of the first exchange; nothing is opened or created. */
  warmUp(): void {
    if (!this.opts.record || this.opening !== null) return;
    import("../journal/index.js").then((journal) => journal.loadSqlite()).catch(() => undefined); // the open reports a failure
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  /** Queues an answer for the next batch, which opens the journal if nothing has yet. */
  record({ seq, at, origin, counted, stored }: ExchangeToRecord): void {
    if (!this.opts.record) return;
    const { redact } = this.opts;
    this.becomeWorthARow();
    this.writeForRun((journal, runId) => {
      const exchange = stored();
      const { key, occurrence } = counted ?? { key: exchange.key, occurrence: journal.exchanges.nextOccurrence(runId, exchange.key) };
      const answer = { requestJson: redact(exchange.requestJson), responseJson: redact(exchange.responseJson) };
      journal.exchanges.add(runId, { seq, key, occurrence, invocation: origin?.invocation ?? null, round: origin?.round ?? null, ...placeOf(exchange), answer }, at);
    });
  }

  recordInvocation(entry: InvocationEntry): void {
    this.writeForRun((journal, runId) => journal.runs.addInvocation(runId, entry));
  }

  /** Source files the run read (absolute paths): their digests (SPEC §11.2), worked out when they are written. */
  recordFiles(files: readonly string[]): void {
    if (files.length > 0) this.writeForRun((journal, runId) => journal.runs.addFiles(runId, this.digestsOf?.(files, this.opts.projectRoot) ?? []));
  }

  /** The interpreter, once it said hello: on the run's row whenever that is written. */
  recordInterpreter(interpreter: { executable: string; version: string }): void {
    this.opts.run.interpreter ??= interpreter;
    this.writeForRun((journal, runId) => journal.runs.setInterpreter(runId, interpreter));
  }

  async answer(key: string): Promise<ReplayAnswer> {
    const occurrence = this.count(key); // in the order the requests are made, before any wait
    this.becomeWorthARow();
    const open = await this.ready;
    if (!open) return { kind: "unavailable", occurrence, reason: this.failure ?? "it could not be opened" };
    this.drain(open);
    try {
      const found = open.journal.exchanges.find(key, occurrence, open.source, open.runId);
      return found ? { kind: "found", occurrence, found } : { kind: "missing", occurrence };
    } catch (error) {
      return { kind: "unavailable", occurrence, reason: `reading it failed (${(error as { code?: string }).code ?? (error as Error).message})` };
    }
  }

  replayed({ key, occurrence, found, block, route, origin }: ReplayedExchange): ExchangeRef {
    const seq = this.nextSeq();
    const at = new Date();
    this.writeForRun((journal, runId) =>
      journal.exchanges.add(
        runId,
        {
          seq,
          key,
          occurrence,
          invocation: origin?.invocation ?? null,
          round: origin?.round ?? null,
          block,
          route: route.id,
          model: route.model,
          answer: { sameAs: found.origin },
        },
        at,
      ),
    );
    return { seq, from: { run: found.runId, seq: found.seq } };
  }

  /** The recorded requests about one block, newest first; none when unreadable. */
  async candidates(block: string): Promise<RecordedRequest[]> {
    const open = await this.ready;
    if (!open) return [];
    this.drain(open);
    try {
      return open.journal.exchanges.requestsOfBlock(block, REPLAY_MISS_CANDIDATES);
    } catch {
      return [];
    }
  }

  /** Writes the intent of an effect now, before it runs (SPEC §11.2); its row, or null when the run is not recorded. */
  async effectStarting(effect: EffectEntry): Promise<number | null> {
    if (!this.opts.record || this.failure !== null) return null;
    const open = await this.ready;
    if (!open || open.runId === null) return null;
    this.drain(open);
    try {
      let id: number | null = null;
      open.journal.inTransaction(() => (id = open.journal.effects.start(open.runId as number, effect, new Date())));
      return id;
    } catch (error) {
      this.disable(error);
      return null;
    }
  }

  effectEnded(id: number): void {
    const at = new Date();
    this.write((open) => open.journal.effects.end(id, at));
  }

  /** An effect not run because the resumed run may have done it. */
  effectUncertain(effect: EffectEntry): void {
    const at = new Date();
    this.writeForRun((journal, runId) => journal.effects.uncertain(runId, effect, at));
  }

  /** Whether a replayed answer's tool call started an effect in the resumed run that never ended. */
  async isUncertain(from: ExchangeRef["from"], callId: string): Promise<boolean> {
    if (from === null) return false;
    const open = await this.ready;
    return open !== null && open.source === from.run && open.uncertain.has(`${from.seq}:${callId}`);
  }

  /** The n-th time this run asks the key (1 for the first): a replay counts when requests are made; a recording counts in the journal as it writes. */
  private count(key: string): number {
    const n = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, n);
    return n;
  }
}

function placeOf(exchange: { block: string | null; route: string; model: string }) {
  return { block: exchange.block, route: exchange.route, model: exchange.model };
}
