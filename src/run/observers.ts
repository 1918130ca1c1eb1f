// Wires what can be seen of a run's AI work (SPEC §11) into the run: `--stats` at exit, `--trace`
// events as JSON lines, and the journal — runs, invocations and model exchanges recorded, or
// answered from with `--replay`. program-run.ts calls startObservers once the configuration is
// known, hands `wiring` to the invocation runner, and awaits `finish` when the program has ended.
// SQLite is loaded only when the journal is on and a model is configured (start-up budget, §12);
// the code of each observer — stats rendering, the trace writer, the journal's request keys (and
// node:crypto with them) — only on the path that uses it, so a run that reaches no block loads
// none of it.

import path from "node:path";
import { profileFor, type ProfileSettings, type ResolvedConfig } from "../config/index.js";
import { UsageError } from "../errors.js";
import type { InvocationRecord } from "../invocation-record.js";
import type { ModelPort } from "../model-port.js";
import { JournalSession } from "../observe/journal-session.js";
import { makeRedactor, secretsFrom, type Redactor } from "../observe/redact.js";
import type { RunTimings } from "../observe/run-clock.js";
import type { TraceWriter } from "../observe/trace-writer.js";
import type { RunExit } from "../observe/types.js";
import { VERSION } from "../version.js";
import { CapabilityRuntime } from "./capability-runtime.js";
import type { InvocationWiring } from "./invocation-runner.js";
import type { RunCommand } from "./run-program.js";
import { scriptLabel } from "./target.js";

export type { RunExit, RunTimings };

export interface Observers {
  wiring: Pick<InvocationWiring, "onInvocation" | "onEvent" | "modelFor" | "capabilities">;
  /** Prints --stats, closes the trace and ends the journal's run row. Call once, after the program ended. */
  finish(exit: RunExit, timings: RunTimings): Promise<void>;
}

const warn = (message: string) => process.stderr.write(`aiython: ${message}\n`);

export async function startObservers({ config, command }: { config: ResolvedConfig; command: RunCommand }): Promise<Observers> {
  const cwd = process.cwd();
  const redact = makeRedactor(secretsFrom(routeKeys(config), command.env));
  const trace = command.traceFile != null ? await openTrace(path.resolve(cwd, command.traceFile), redact) : null;
  const session = journalSession(config, command, redact);
  const invocations: InvocationRecord[] = [];
  const capabilities = new CapabilityRuntime(config, { replay: command.replay ?? false, record: recordsJournal(config, command), env: command.env, cwd, warn });
  const shown = (file: string) => relativeInside(file, cwd);
  return {
    wiring: {
      modelFor: (profile, live) => journaledModel(profile, live, session, command.replay ?? false, shown),
      onInvocation: (record) => {
        invocations.push(record);
        session?.recordInvocation(journalEntry(record, config.projectRoot));
      },
      ...(trace ? { onEvent: (event) => trace.write(event) } : {}),
      capabilities,
    },
    async finish(exit, timings) {
      if (command.stats) {
        const { statsJsonLine, statsText } = await import("../observe/stats-render.js");
        process.stderr.write(command.stats === "json" ? statsJsonLine(invocations, timings, shown) : statsText(invocations, timings, shown));
      }
      trace?.close();
      await capabilities.close();
      await session?.finish({ endedAt: new Date(), status: exit.status, signal: exit.signal, ...timings });
    },
  };
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

/** The journal of this run: recording (unless --no-journal or `journal = false`) or replaying. */
function journalSession(config: ResolvedConfig, command: RunCommand, redact: Redactor): JournalSession | null {
  const replay = command.replay ?? false;
  const recording = recordsJournal(config, command);
  if (!config.modelConfigured || !(recording || replay)) return null;
  return new JournalSession({
    projectRoot: config.projectRoot,
    cwd: process.cwd(),
    record: recording,
    run: { script: scriptLabel(command.program), args: command.programArgs, replay, pid: process.pid, version: VERSION, startedAt: new Date() },
    redact,
    warn,
  });
}

function recordsJournal(config: ResolvedConfig, command: RunCommand): boolean {
  return config.modelConfigured && (command.journal ?? true) && profileFor(config, null).journal;
}

function journaledModel(profile: ProfileSettings, live: () => ModelPort, session: JournalSession | null, replay: boolean, shown: (file: string) => string): ModelPort {
  const route = { id: profile.routes[0].id, model: profile.routes[0].model };
  if (replay && session) {
    return loadedPort(import("../observe/replaying-model.js").then(({ replayingModel }) => replayingModel(route, (key) => session.lookup(key), shown)));
  }
  if (session && profile.journal) {
    const model = live();
    return loadedPort(import("../observe/recording-model.js").then(({ recordingModel }) => recordingModel(model, route, (exchange) => session.recordExchange(exchange))));
  }
  return live();
}

/** A port whose code is still loading (it began when the port was made); calls wait for it. */
function loadedPort(loading: Promise<ModelPort>): ModelPort {
  return { complete: async (request, options) => (await loading).complete(request, options) };
}

function journalEntry(record: InvocationRecord, projectRoot: string) {
  return {
    invocation: record.id,
    file: relativeInside(record.filename, projectRoot),
    line: record.line,
    mode: record.mode,
    status: record.end.status,
    action: record.end.status === "finished" ? record.end.action ?? null : null,
    missingCapability: record.end.status === "failed" ? record.end.missing_capability ?? null : null,
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
