// Wires what can be seen of a run's AI work (SPEC §11) into the run: `--stats` at exit, `--trace`
// events as JSON lines, and the journal — runs, invocations and model exchanges recorded, or
// answered from with `--replay`. main.ts calls startObservers once the configuration is known,
// hands `wiring` to makeInvocationRunner, and awaits `finish` when the program has ended.
// SQLite is loaded only when the journal is on and a model is configured (start-up budget, §12).

import path from "node:path";
import { profileFor, type ProfileSettings, type ResolvedConfig } from "../config/index.js";
import { JournalSession } from "../observe/journal-session.js";
import { makeRedactor, secretsFrom } from "../observe/redact.js";
import { recordingModel } from "../observe/recording-model.js";
import { replayingModel } from "../observe/replaying-model.js";
import { statsJsonLine, statsText } from "../observe/stats-render.js";
import { openTraceWriter, TraceFileError, type TraceWriter } from "../observe/trace-writer.js";
import type { ObservedInvocation, RunExit } from "../observe/types.js";
import type { RunTimings } from "../observe/run-clock.js";
import { UsageError } from "../errors.js";
import type { InvocationRecord, InvocationWiring } from "./invocation-runner.js";
import type { ModelPort } from "../recovery/invocation/ports.js";
import type { ProgramSpec } from "./target.js";
import { VERSION } from "../version.js";

export type { RunExit, RunTimings };
export { RunClock } from "../observe/run-clock.js";

export interface ObserverOptions {
  config: ResolvedConfig;
  stats: false | "text" | "json";
  traceFile: string | null;
  replay: boolean;
  /** False with --no-journal; the default profile's `journal = false` turns it off too. */
  journal: boolean;
  /** How the program was named (see scriptLabel): never the code of -c. */
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface Observers {
  wiring: Pick<InvocationWiring, "onInvocation" | "onEvent" | "modelFor">;
  /** Prints --stats, closes the trace and ends the journal's run row. Call once, after the program ended. */
  finish(exit: RunExit, timings: RunTimings): Promise<void>;
}

const warn = (message: string) => process.stderr.write(`aiython: ${message}\n`);

export async function startObservers(opts: ObserverOptions): Promise<Observers> {
  const { config } = opts;
  const cwd = process.cwd();
  const redact = makeRedactor(secretsFrom(routeKeys(config), opts.env));
  let trace: TraceWriter | null = null;
  if (opts.traceFile !== null) {
    try {
      trace = openTraceWriter(path.resolve(cwd, opts.traceFile), { redact, warn });
    } catch (error) {
      if (error instanceof TraceFileError) throw new UsageError(error.message);
      throw error;
    }
  }
  const recording = opts.journal && profileFor(config, null).journal;
  const session =
    config.modelConfigured && (recording || opts.replay)
      ? new JournalSession({
          projectRoot: config.projectRoot,
          cwd,
          record: recording,
          run: { script: opts.script, args: opts.args, replay: opts.replay, pid: process.pid, version: VERSION, startedAt: new Date() },
          redact,
          warn,
        })
      : null;
  const invocations: ObservedInvocation[] = [];
  const shown = (file: string) => relativeInside(file, cwd);

  const modelFor = (profile: ProfileSettings, live: () => ModelPort): ModelPort => {
    const route = { id: profile.routes[0].id, model: profile.routes[0].model };
    if (opts.replay && session) return replayingModel(route, (key) => session.lookup(key), shown);
    if (session && profile.journal) return recordingModel(live(), route, (exchange) => session.recordExchange(exchange));
    return live();
  };

  const onInvocation = (record: InvocationRecord) => {
    invocations.push(record);
    session?.recordInvocation({
      invocation: record.id,
      file: relativeInside(record.filename, config.projectRoot),
      line: record.line,
      mode: record.mode,
      status: record.end.status,
      action: record.end.status === "finished" ? record.end.action ?? null : null,
      missingCapability: record.end.status === "failed" ? record.end.missing_capability ?? null : null,
      counters: record.stats,
      endedAt: new Date(),
    });
  };

  return {
    wiring: {
      modelFor,
      onInvocation,
      ...(trace ? { onEvent: (event) => trace.write(event) } : {}),
    },
    async finish(exit, timings) {
      if (opts.stats === "json") process.stderr.write(statsJsonLine(invocations, timings, shown));
      else if (opts.stats === "text") process.stderr.write(statsText(invocations, timings, shown));
      trace?.close();
      await session?.finish({ endedAt: new Date(), status: exit.status, signal: exit.signal, ...timings });
    },
  };
}

/** The journal's `script` column: the path as given, "-m NAME", "-c" (never the code) or "-". */
export function scriptLabel(program: ProgramSpec): string {
  switch (program.kind) {
    case "script":
      return program.path;
    case "module":
      return `-m ${program.name}`;
    case "code":
      return "-c";
    case "stdin":
      return "-";
  }
}

function routeKeys(config: ResolvedConfig): (string | null)[] {
  return [...config.profiles.values()].flatMap((profile) => profile.routes.map((route) => route.apiKey));
}

function relativeInside(file: string, folder: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(folder, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}
