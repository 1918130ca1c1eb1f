// The CapabilityPort of one invocation (src/capability-port.ts; SPEC §10): validates and runs
// plans against the profile's capability routes, keeps the invocation's fingerprint memo (a step
// done once is not done again, an uncertain submission is never repeated), counts usage, and
// lists and resumes the project's jobs. run/ builds one per invocation.

import type { CapabilityPort, JobSummary, PlanAnswer, StepOutcome } from "../../capability-port.js";
import type { ProfileSettings, Route } from "../../config/index.js";
import { Artifacts } from "../artifacts.js";
import type { StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import type { RoutedCapability } from "../names.js";
import { availableCapabilities, guideOf } from "../registry.js";
import { ServiceCaller, type CallerOptions } from "../service/call-service.js";
import { ServiceError } from "../service/service-error.js";
import type { StoreOpener } from "../store.js";
import { UsageCounter } from "../usage.js";
import { resumeVideoJob } from "../video/resume-job.js";
import { PendingJob } from "../video/video-jobs.js";
import { Assets } from "./assets.js";
import type { PlannedStep } from "./plan-types.js";
import { runSteps } from "./run-steps.js";
import { validatePlan } from "./validate-plan.js";

export interface SessionOptions {
  profile: ProfileSettings;
  projectRoot: string;
  store: StoreOpener;
  /** --replay; the journal records; the 24 h cache is on. */
  mode: Pick<CallerOptions, "replay" | "record" | "cache">;
  /** The block's `provider` directive, if any. */
  directiveProvider: string | null;
  /** "file:line" of the block, kept with jobs. */
  origin: string | null;
}

export interface CapabilitySession extends CapabilityPort {
  usage: UsageCounter;
}

/** The port for an invocation of a profile with capability routes, or null when it has none. */
export function capabilitySession(opts: SessionOptions): CapabilitySession | null {
  const routed = new Set(Object.keys(opts.profile.capabilities));
  const available = availableCapabilities(routed);
  if (available.length === 0) return null;
  const usage = new UsageCounter(opts.profile.capabilities);
  const caller = new ServiceCaller({ ...opts.mode, store: opts.store, onUsage: (record) => usage.add(record) });
  const assets = new Assets(opts.projectRoot);
  const artifacts = new Artifacts(opts.projectRoot);
  const memo = new Map<string, StepOutcome>();
  const store = async () => {
    const opened = await opts.store();
    if (!opened) throw new StepError("the project's store (.aiython/aiython.sqlite) cannot be used; see the warning above");
    return opened;
  };

  return {
    usage,
    available: () => available,
    guide: () => guideOf(available),
    async runPlan(raw, frame, options): Promise<PlanAnswer> {
      const validated = await validatePlan(raw, frame, {
        capabilities: opts.profile.capabilities,
        permissions: opts.profile.permissions,
        profile: opts.profile.name,
        assets,
        directiveProvider: opts.directiveProvider,
      });
      if (!validated.ok)
        return validated.missing ? { kind: "missing_capability", capability: validated.missing, message: validated.message } : { kind: "rejected", message: validated.message };
      const signal = options.signal ?? new AbortController().signal;
      const context = (step: PlannedStep, routes: Map<string, Route[]>, calls: { cached: number; replayed: number; live: number }): StepContext => ({
        stepId: step.id,
        routes(capability: RoutedCapability) {
          const found = routes.get(capability);
          if (!found || found.length === 0) throw new StepError(`no ${capability} route for this step`);
          return found;
        },
        async call(spec) {
          const answer = await caller.call(spec, { signal, deadline: options.deadline, useCache: step.cache, step: step.id });
          if (answer.cached) calls.cached += 1;
          else if (answer.replayed) calls.replayed += 1;
          else calls.live += 1;
          return answer;
        },
        asset(value) {
          const given = (value as { $asset?: unknown } | null)?.$asset;
          if (typeof given !== "string") throw new StepError(`expected {"$asset": path}, got ${JSON.stringify(value)?.slice(0, 80)}`);
          const asset = assets.check(given);
          if (typeof asset === "string") throw new StepError(asset);
          return asset;
        },
        assets,
        artifacts,
        store,
        signal,
        deadline: options.deadline,
        origin: opts.origin,
      });
      return { kind: "ran", steps: await runSteps({ steps: validated.steps, routes: validated.routes, context, memo, signal }) };
    },
    async listJobs(): Promise<JobSummary[]> {
      const opened = await opts.store();
      return (opened?.jobs(50) ?? []).map(summary);
    },
    async resumeJob(id, options): Promise<StepOutcome> {
      const opened = await opts.store();
      const job = opened?.job(id) ?? null;
      if (!opened || !job) return { status: "error", message: `no job ${id} in this project; call jobs for the list` };
      try {
        const path = await resumeVideoJob(job, {
          store: opened,
          routes: opts.profile.capabilities.video?.routes ?? [],
          artifacts,
          record: opts.mode.record,
          signal: options.signal ?? new AbortController().signal,
          deadline: options.deadline,
        });
        return { status: "ok", valueJson: JSON.stringify(path) };
      } catch (error) {
        if (error instanceof PendingJob) return { status: "pending", job: id, message: error.message };
        if (error instanceof ServiceError) return error.kind === "uncertain" ? { status: "uncertain", message: error.message } : { status: "error", message: error.message };
        throw error;
      }
    },
  };
}

export function summary(job: JobSummary): JobSummary {
  const { id, capability, status, route, created_at, origin, artifact } = job;
  return { id, capability, status, route, created_at, origin, artifact };
}
