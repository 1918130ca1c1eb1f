// The project's long capability jobs outside a run (SPEC §10, `aiython jobs list|resume ID`): the
// configuration and the project's store composed as a run composes them, so a video job a killed
// run left behind is finished through the same code the `resume_job` tool uses — the routes are
// today's [capabilities.video] (keys are never stored), the file the name chosen at submission.

import fs from "node:fs";
import type { JobSummary, StepOutcome } from "../capability-port.js";
import { capabilitySession, summary } from "../capabilities/plan/plan-session.js";
import { loadConfig, profileFor } from "../config/index.js";
import { PLAN_DEFAULTS } from "../host-tool-defaults.js";
import { UsageError } from "../errors.js";
import { journalPath, openCapabilityStore } from "../journal/index.js";

export interface JobsContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  configFile?: string;
  profile?: string;
}

async function project(ctx: JobsContext) {
  const config = await loadConfig({ scriptPath: null, cwd: ctx.cwd, configFile: ctx.configFile, env: ctx.env, profile: ctx.profile });
  const file = journalPath(config.projectRoot);
  return { config, file, exists: fs.existsSync(file) };
}

export async function listProjectJobs(ctx: JobsContext, limit = 50): Promise<{ jobs: JobSummary[]; file: string }> {
  const { config, file, exists } = await project(ctx);
  if (!exists) return { jobs: [], file };
  const store = await openCapabilityStore({ projectRoot: config.projectRoot, cwd: ctx.cwd });
  try {
    return { jobs: store.jobs(limit).map(summary), file };
  } finally {
    store.close();
  }
}

/** Waits for job `id` (up to PLAN_DEFAULTS.jobResumeTimeoutMs, or until `signal`); its outcome. */
export async function resumeProjectJob(id: number, ctx: JobsContext, signal: AbortSignal): Promise<StepOutcome> {
  const { config, file, exists } = await project(ctx);
  if (!exists) throw new UsageError(`no job ${id}: this project has no jobs yet (no store at ${file})`);
  const profile = profileFor(config, null);
  const store = await openCapabilityStore({ projectRoot: config.projectRoot, cwd: ctx.cwd });
  try {
    if (!store.job(id)) throw new UsageError(`no job ${id} in ${file}; see aiython jobs list`);
    const session = capabilitySession({
      profile,
      projectRoot: config.projectRoot,
      store: async () => store,
      mode: { replay: false, record: profile.journal, cache: true },
      directiveProvider: null,
      origin: null,
    });
    if (session === null || !profile.capabilities.video) {
      throw new UsageError(`job ${id} is a video job and aiython.toml has no [capabilities.video] route to finish it; configure one with: aiython setup --capability video`);
    }
    return await session.resumeJob(id, { signal, deadline: Date.now() + PLAN_DEFAULTS.jobResumeTimeoutMs });
  } finally {
    store.close();
  }
}
