// Finishing a persisted video job (SPEC §10) — from the `resume_job` tool or `aiython jobs resume
// ID`: wait for the provider, download the video to the artifact name chosen when the job was
// submitted, mark the job completed and store the answer (so --replay of the run that started it
// finds it). A job whose submission was uncertain, or that failed, is reported, never resubmitted.

import fs from "node:fs";
import type { Route } from "../../config/index.js";
import { extensionOf, type Artifacts } from "../artifacts.js";
import { ServiceError } from "../service/service-error.js";
import type { CapabilityStore, JobRow } from "../store.js";
import { awaitJob, realTiming, uncertainMessage, type JobTiming } from "./video-jobs.js";

export interface ResumeDeps {
  store: CapabilityStore;
  /** The video routes configured now; the job's route must be among them (keys are never stored). */
  routes: readonly Route[];
  artifacts: Artifacts;
  /** The journal records: the answer is kept for --replay. */
  record: boolean;
  signal: AbortSignal;
  deadline: number;
  timing?: JobTiming;
}

/** The path of the job's video, once it is there. Throws PendingJob when the deadline comes first. */
export async function resumeVideoJob(job: JobRow, deps: ResumeDeps): Promise<string> {
  if (job.status === "completed" && job.artifact && fs.existsSync(job.artifact)) return job.artifact;
  if (job.status === "submitting" || job.status === "uncertain") throw new ServiceError("uncertain", uncertainMessage(job));
  if (job.status === "failed") throw new ServiceError("failed", `video job ${job.id} failed at the provider; run a new step to make another`);
  const route = deps.routes.find((r) => r.id === job.route);
  if (!route) {
    const known = deps.routes.map((r) => r.id).join(", ") || "none";
    throw new ServiceError(
      "failed",
      `video job ${job.id} was made through route ${job.route}, which [capabilities.video] no longer lists (its routes: ${known}); add it back to resume the job`,
    );
  }
  const timing = deps.timing ?? realTiming;
  const { bytes, mime } = await awaitJob(deps.store, job, route, { signal: deps.signal, remainingMs: deps.deadline - timing.now() }, timing);
  const written = deps.artifacts.write(job.artifact_name.replace(/\.mp4$/, `.${extensionOf(mime, "mp4")}`), bytes);
  deps.store.updateJob(job.id, { status: "completed", artifact: written });
  deps.store.putResult({ key: job.key, capability: "video", route: route.id, json: JSON.stringify({ mime, job: job.id }), blob: bytes, journaled: deps.record });
  return written;
}
