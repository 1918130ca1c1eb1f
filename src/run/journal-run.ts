// This run as the journal records it (SPEC §11): whether it records, what kind of run it is
// (recorded, replayed, filled, resumed, rechecked), its command line, folder, profile and entry
// file, and what makes it "the same command line" as another (the default source of --replay,
// §11.1). `--replay=RUN_ID` names a run that must exist: a usage error before the program starts.

import fs from "node:fs";
import path from "node:path";
import { profileFor, type ResolvedConfig } from "../config/index.js";
import { UsageError } from "../errors.js";
import type { RunMode } from "../journal/index.js";
import { JournalSession } from "../observe/journal-session.js";
import type { Redactor } from "../observe/redact.js";
import { projectPath } from "../observe/project-path.js";
import { VERSION } from "../version.js";
import type { RunCommand } from "./run-command.js";
import { scriptLabel } from "./target.js";

export interface JournalRunContext {
  cwd: string;
  redact: Redactor;
  warn: (message: string) => void;
}

/** Whether this run is recorded: a model is configured and neither --no-journal nor `journal = false` says otherwise. */
export function recordsJournal(config: ResolvedConfig, command: RunCommand): boolean {
  return config.modelConfigured && (command.journal ?? true) && profileFor(config, null).journal;
}

/** The journal of this run: recording (unless --no-journal or `journal = false`) or replaying; null when neither. */
export async function journalSession(config: ResolvedConfig, command: RunCommand, { cwd, redact, warn }: JournalRunContext): Promise<JournalSession | null> {
  const replay = command.replay ?? null;
  const record = recordsJournal(config, command);
  if (!config.modelConfigured || !(record || replay)) return null;
  if (replay?.run != null && command.rerun === undefined) await mustExist(config.projectRoot, cwd, replay.run);
  const profileName = config.forcedProfile ?? config.defaultProfile;
  const route = config.profiles.get(profileName)?.routes[0];
  const folder = projectPath(cwd, config.projectRoot);
  const session = new JournalSession({
    projectRoot: config.projectRoot,
    cwd,
    record,
    replay: replay && { run: replay.run },
    run: {
      script: scriptLabel(command.program),
      args: command.programArgs,
      mode: modeOf(command),
      argv: command.argv ?? null,
      commandKey: null,
      cwd: folder,
      interpreter: null,
      profile: { name: profileName, route: route?.id ?? null, model: route?.model ?? null },
      sourceRun: replay?.run ?? null,
      resumedFrom: command.rerun?.kind === "resume" ? command.rerun.from : null,
      pid: process.pid,
      version: VERSION,
      startedAt: new Date(),
    },
    command: commandIdentity(command, folder),
    redact,
    warn,
  });
  const entry = entryFile(command, cwd);
  if (entry !== null) session.recordFiles([entry]);
  return session;
}

function modeOf(command: RunCommand): RunMode {
  if (command.rerun) return command.rerun.kind;
  if (!command.replay) return "record";
  return command.replay.fill ? "fill" : "replay";
}

/**
 * Two runs are of "the same command line" when they run the same program with the same arguments,
 * interpreter options and profile choices from the same folder; how they are observed (--stats,
 * --trace, --replay) and limited (budgets, limits, --approve) does not matter.
 */
function commandIdentity(command: RunCommand, folder: string) {
  return {
    cwd: folder,
    program: command.program,
    args: command.programArgs,
    interpreter: command.interpreter.args,
    python: command.python ?? null,
    config: command.configFile ?? null,
    profile: command.profile ?? null,
    force_profile: command.forceProfile ?? null,
    model: command.model ?? null,
  };
}

/** The entry program's file: a script, a folder's __main__.py, or a zip file; none for -m, -c and stdin. */
function entryFile(command: RunCommand, cwd: string): string | null {
  if (command.program.kind !== "script") return null;
  const file = path.resolve(cwd, command.program.path);
  return fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() ? path.join(file, "__main__.py") : file;
}

async function mustExist(projectRoot: string, cwd: string, run: number): Promise<void> {
  const { openJournal, journalPath, JournalUnavailableError } = await import("../journal/index.js");
  const journal = await openJournal({ projectRoot, cwd, create: false }).catch((error: Error) => {
    throw error instanceof JournalUnavailableError ? new UsageError(`--replay=${run}: cannot read the journal: ${error.message}`) : error;
  });
  try {
    if (!journal?.runs.exists(run)) throw new UsageError(`--replay=${run}: there is no run ${run} in ${journalPath(projectRoot)}; see aiython runs list`);
  } finally {
    journal?.close();
  }
}
