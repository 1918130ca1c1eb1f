// Opening the journal for this run (journal-session.ts): its code and SQLite loaded on first use,
// the file opened (a replay in a folder that cannot be written reads it as it is and records
// nothing, with one line saying so), and the run's row started, with the run it replays and, for a
// resume, the source run's effects that never ended (SPEC §11.2).

import type { Journal, RunStart } from "../journal/index.js";
import type { Redactor } from "./redact.js";

export interface JournalSessionOptions {
  projectRoot: string;
  cwd: string;
  /** Record this run (runs, invocations, exchanges). False: open an existing journal to read only. */
  record: boolean;
  /** Answer from the journal (SPEC §11.1): from this run, or (null) the latest of the same command line. */
  replay: { run: number | null } | null;
  run: RunStart;
  /** What makes two runs "the same command line": its hash is the run's command key, worked out at the open. */
  command: unknown;
  redact: Redactor;
  /** Prints one line on stderr (the `aiython: ` prefix is the caller's). */
  warn: (message: string) => void;
}

export interface Open {
  journal: Journal;
  runId: number | null;
  source: number | null;
  /** Resume: the source run's effects that started and never ended, as "seq:call id". */
  uncertain: ReadonlySet<string>;
}

/** The journal's module and source-digests.ts, imported only when a run opens the journal. */
export async function loadJournal() {
  const [journal, { digestsOf }] = await Promise.all([import("../journal/index.js"), import("./source-digests.js")]);
  return { ...journal, digestsOf };
}

type Loaded = Awaited<ReturnType<typeof loadJournal>>;

/** The open journal with this run's row started (when it records), or null when there is none to read. */
export async function openForRun(loaded: Loaded, opts: JournalSessionOptions): Promise<Open | null> {
  const { projectRoot, cwd, record, replay } = opts;
  let journal: Journal | null;
  let recording = record;
  try {
    journal = await loaded.openJournal({ projectRoot, cwd, create: record });
  } catch (error) {
    if (!(record && replay && error instanceof loaded.JournalUnavailableError && error.reason === "read-only")) throw error;
    journal = await loaded.openJournal({ projectRoot, cwd, create: false });
    recording = false;
    opts.warn(`this run is not recorded: ${error.message.split("; ")[0]}; it is replayed from the journal as it is`);
  }
  if (!journal) return null;
  try {
    return startRun(loaded, journal, opts, recording);
  } catch (error) {
    journal.close();
    throw error;
  }
}

function startRun(loaded: Loaded, journal: Journal, opts: JournalSessionOptions, recording: boolean): Open {
  const { run, replay } = opts;
  run.commandKey ??= loaded.commandKey(opts.command);
  run.argv = run.argv?.map(opts.redact) ?? null;
  run.sourceRun = replay === null ? null : (replay.run ?? journal.runs.latestOfCommand(run.commandKey, null));
  const runId = recording ? journal.runs.start(run) : null;
  const uncertain = new Set(
    run.mode === "resume" && run.sourceRun !== null
      ? journal.effects
          .of(run.sourceRun)
          .filter((effect) => effect.status !== "ended")
          .map((effect) => `${effect.exchangeSeq}:${effect.callId}`)
      : [],
  );
  return { journal, runId, source: run.sourceRun, uncertain };
}
