// Wires what can be seen and spent of a run's AI work (SPEC §11, §13) into the run: `--stats` at
// exit, `--trace` events as JSON lines, spans to the user's OpenTelemetry collector (only when
// OTEL_EXPORTER_OTLP_* says where), the journal — runs (with their command line, interpreter and
// source digests: journal-run.ts), invocations, model exchanges and effects recorded, or answered
// from with `--replay`, `aiython resume` and `aiython recheck` — and the run's budget. program-run.ts calls startObservers
// once the configuration is known, hands `wiring` to the invocation runner, and awaits `finish`
// when the program has ended. SQLite is loaded only when the journal is on and a model is
// configured, the OpenTelemetry SDK only at the first invocation of a run that exports (§12); the
// code of each observer — stats rendering, the trace writer, the journal's request keys (and
// node:crypto with them) — only on the path that uses it, so a run that reaches no block loads
// none of it.

import path from "node:path";
import { profileFor, type ResolvedConfig } from "../config/index.js";
import { UsageError } from "../errors.js";
import type { InvocationRecord } from "../invocation-record.js";
import type { InvocationEvent } from "../invocation-record.js";
import type { RunBudget } from "../observe/budget.js";
import { otelSettings } from "../observe/otel/settings.js";
import { OtelSink } from "../observe/otel/otel-sink.js";
import { lazyRedactor, secretsFrom, type Redactor } from "../observe/redact.js";
import type { RunTimings } from "../observe/run-clock.js";
import type { TraceWriter } from "../observe/trace-writer.js";
import type { RunExit } from "../observe/types.js";
import { CapabilityRuntime } from "./capability-runtime.js";
import { runBudget } from "./budget-setup.js";
import type { InvocationWiring } from "./invocation-runner.js";
import { profileModel } from "./model-wiring.js";
import { RecoveryNotices } from "./recovery-notice.js";
import type { RunCommand } from "./run-command.js";
import { effectJournal } from "./effect-journal.js";
import { scriptLabel } from "./target.js";
import { journalSession, recordsJournal } from "./journal-run.js";
import type { JournalSession } from "../observe/journal-session.js";

export type { RunExit, RunTimings };

export interface Observers {
  wiring: Pick<InvocationWiring, "onInvocation" | "onEvent" | "modelFor" | "capabilities" | "effects" | "notices">;
  /** The interpreter said hello: the journal keeps which one ran the program. */
  interpreter(python: { executable: string; version: string }): void;
  /** Project source files the program's processes imported (absolute paths, from their pauses): the journal keeps their digests. */
  sourceFiles(files: readonly string[]): void;
  /** The run's one budget (SPEC §13): every request of every invocation is admitted by it. */
  budget: RunBudget;
  /** The run's journal, or null (batch offload journals its batches there, SPEC §14). */
  session: JournalSession | null;
  /** Prints --stats, closes the trace, ends the journal's run row and sends the spans. Call once, after the program ended. */
  finish(exit: RunExit, timings: RunTimings): Promise<void>;
}

const warn = (message: string) => process.stderr.write(`aiython: ${message}\n`);

export async function startObservers({ config, command }: { config: ResolvedConfig; command: RunCommand }): Promise<Observers> {
  const cwd = process.cwd();
  const redact = lazyRedactor(() => secretsFrom(routeKeys(config), command.env));
  const budget = runBudget(config, command);
  const trace = command.traceFile != null ? await openTrace(path.resolve(cwd, command.traceFile), redact) : null;
  const otel = otelFor(config, command, redact);
  const session = await journalSession(config, command, { cwd, redact, warn });
  // Kept for --stats only, which lists every invocation; a run without it keeps none (SPEC §12:
  // memory does not grow with the number of blocks).
  const invocations: InvocationRecord[] = [];
  const strict = command.replay != null && !command.replay.fill;
  const capabilities = new CapabilityRuntime(config, { replay: strict, record: recordsJournal(config, command), env: command.env, cwd, warn });
  const shown = (file: string) => relativeInside(file, cwd);
  const notices = new RecoveryNotices(config.modelConfigured ? profileFor(config, null).recoveryNotice : "each");
  const sinks = [trace, otel].filter((sink) => sink !== null);
  const onEvent = (event: InvocationEvent) => {
    for (const sink of sinks) sink.write(event);
  };
  const missed = command.rerun?.kind === "recheck" ? command.rerun.missed : undefined;
  const seenFiles = new Set<string>();
  return {
    budget,
    session,
    wiring: {
      modelFor: (profile, live) => profileModel(profile, live, { session, replay: command.replay ?? null, budget, shown, missed }),
      onInvocation: (record) => {
        if (command.stats) invocations.push(record);
        session?.recordInvocation(journalEntry(record, config.projectRoot));
      },
      ...(sinks.length > 0 ? { onEvent } : {}),
      capabilities,
      notices,
      ...(session ? { effects: effectJournal(session) } : {}),
    },
    interpreter: (python) => session?.recordInterpreter(python),
    sourceFiles: (files) => {
      const fresh = files.filter((file) => !seenFiles.has(file));
      for (const file of fresh) seenFiles.add(file);
      session?.recordFiles(fresh);
    },
    async finish(exit, timings) {
      // The journal first: its file may open only now (its rows are written in batches), and a
      // warning that it cannot be comes before the run's summary, as it would in the middle of the run.
      await session?.finish({ endedAt: new Date(), status: exit.status, signal: exit.signal, how: exit.how, ...timings });
      const summary = notices.summary();
      if (summary) process.stderr.write(summary);
      if (command.stats) {
        const { statsJsonLine, statsText } = await import("../observe/stats-render.js");
        process.stderr.write(command.stats === "json" ? statsJsonLine(invocations, timings, shown) : statsText(invocations, timings, shown));
      }
      trace?.close();
      await capabilities.close();
      await otel?.finish(exit);
    },
  };
}

/** Spans for the collector the standard variables name; null when they name none (the usual case). */
function otelFor(config: ResolvedConfig, command: RunCommand, redact: Redactor): OtelSink | null {
  const settings = otelSettings(command.env);
  if (settings === null || !config.modelConfigured) return null;
  const routes = [...config.profiles.values()].flatMap((profile) => profile.routes);
  const script = scriptLabel(command.program);
  return new OtelSink({ settings, routes, script, redact, warn });
}

async function openTrace(file: string, redact: Redactor): Promise<TraceWriter> {
  const { openTraceWriter, TraceFileError } = await import("../observe/trace-writer.js");
  try {
    return openTraceWriter(file, { redact, warn });
  } catch (error) {
    if (error instanceof TraceFileError) throw new UsageError(error.message);
    throw error;
  }
}

function journalEntry(record: InvocationRecord, projectRoot: string) {
  return {
    invocation: record.id,
    file: relativeInside(record.filename, projectRoot),
    line: record.line,
    mode: record.mode,
    status: record.end.status,
    action: record.end.status === "finished" ? (record.end.action ?? null) : null,
    missingCapability: record.end.status === "failed" ? (record.end.missing_capability ?? null) : null,
    counters: record.stats,
    capabilities: record.capabilities ?? null,
    endedAt: new Date(),
  };
}

function routeKeys(config: ResolvedConfig): (string | null)[] {
  return [...config.profiles.values()].flatMap((profile) => profile.routes.map((route) => route.apiKey));
}

function relativeInside(file: string, folder: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(folder, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}
