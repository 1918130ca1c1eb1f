// The journal `aiython runs`, `resume` and `recheck` read (SPEC §11): the one next to the nearest
// aiython.toml; without one, the nearest folder at or above the working directory that holds
// `.aiython/aiython.sqlite` (searched the way aiython.toml is), else the working directory. It is
// opened to read — read-only where it cannot be written — and a journal that cannot be read at all
// is a usage error naming why.

import { loadConfig } from "../../config/index.js";
import { JournalUnavailableError, nearestJournalRoot, openJournal, type Journal } from "../../journal/index.js";
import { UsageError } from "../../errors.js";

export interface ProjectContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configFile?: string;
}

export async function projectJournal(ctx: ProjectContext): Promise<{ journal: Journal | null; projectRoot: string }> {
  const config = await loadConfig({ scriptPath: null, cwd: ctx.cwd, configFile: ctx.configFile, env: ctx.env });
  const projectRoot = config.path === null ? (nearestJournalRoot(ctx.cwd) ?? config.projectRoot) : config.projectRoot;
  try {
    return { journal: await openJournal({ projectRoot, cwd: ctx.cwd, create: false }), projectRoot };
  } catch (error) {
    if (error instanceof JournalUnavailableError) throw new UsageError(`cannot read the journal: ${error.message}`);
    throw error;
  }
}
