// Video generation jobs through the provider's job API (SPEC §10), as OpenAI serves it with plain
// fetch: `POST /videos` (multipart: model, prompt, seconds, size) → `{id, status}`, `GET
// /videos/{id}` until `completed` or `failed`, `GET /videos/{id}/content` for the file. Each job is
// persisted in the project's store *before* it is submitted (`submitting`), then carries the
// provider's id, so a run that is killed leaves a job `aiython jobs resume` can finish. A
// submission whose answer never came is `uncertain` and is never sent again automatically: only
// the provider knows whether it made (and billed) the video.

import type { Route } from "../../config/index.js";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import { AttemptError, ServiceError } from "../service/service-error.js";
import { jsonObject, malformed, viaFetch, type AttemptEnv } from "../service/transport.js";
import type { CapabilityStore, JobRow, JobStatus } from "../store.js";
import { abortableSleep } from "../../model/abortable-sleep.js";

/** The job outlived the time the caller could wait; it goes on at the provider. */
export class PendingJob extends Error {
  constructor(readonly job: number) {
    super(`video job ${job} is still running at the provider; wait for it with resume_job, or later with: aiython jobs resume ${job}`);
    this.name = "PendingJob";
  }
}

export interface VideoRequest {
  prompt: string;
  seconds: number | null;
  size: string | null;
}

export interface JobTiming {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  now(): number;
}

/** Submits one job, recorded first; an answer that never came marks it uncertain (see the header). */
export async function submitJob(store: CapabilityStore, jobId: number, route: Route, env: AttemptEnv, request: VideoRequest): Promise<JobRow> {
  const form = new FormData();
  form.set("model", route.model);
  form.set("prompt", request.prompt);
  if (request.seconds !== null) form.set("seconds", String(request.seconds));
  if (request.size !== null) form.set("size", request.size);
  try {
    const json = await jsonObject(await viaFetch(route, env, "videos", { method: "POST", body: form }));
    if (typeof json.id !== "string" || json.id === "") throw malformed("the job has no id");
    store.updateJob(jobId, { provider_job_id: json.id, status: statusOf(json.status, "queued") });
  } catch (error) {
    store.updateJob(jobId, { status: maybeSent(error) ? "uncertain" : "failed" });
    throw error;
  }
  return store.job(jobId) as JobRow;
}

/** Waits for a submitted job and downloads its video; PendingJob when the time runs out first. */
export async function awaitJob(store: CapabilityStore, job: JobRow, route: Route, env: AttemptEnv, timing: JobTiming): Promise<{ bytes: Buffer; mime: string | null }> {
  const id = job.provider_job_id;
  if (id === null) throw new ServiceError("uncertain", uncertainMessage(job));
  const until = timing.now() + env.remainingMs;
  for (;;) {
    const status = await pollOnce(route, { signal: env.signal, remainingMs: until - timing.now() }, id);
    if (status !== null) {
      if (status !== job.status) store.updateJob(job.id, { status });
      job = { ...job, status };
      if (status === "failed") throw new ServiceError("failed", `the provider reports that video job ${job.id} failed; change the prompt or the params and run a new step`);
      if (status === "completed") break;
    }
    if (env.signal.aborted) throw new ServiceError("cancelled", "cancelled");
    if (timing.now() + PLAN_DEFAULTS.jobPollMs >= until) throw new PendingJob(job.id);
    await timing.sleep(PLAN_DEFAULTS.jobPollMs, env.signal);
  }
  const response = await viaFetch(route, { signal: env.signal, remainingMs: Math.max(1_000, until - timing.now()) }, `videos/${encodeURIComponent(id)}/content`, { method: "GET" });
  return { bytes: Buffer.from(await response.arrayBuffer()), mime: response.headers.get("content-type") };
}

/** The job's status now, or null when this poll failed in a way worth polling again. */
async function pollOnce(route: Route, env: AttemptEnv, id: string): Promise<JobStatus | null> {
  if (env.remainingMs <= 0) return null;
  try {
    const json = await jsonObject(await viaFetch(route, env, `videos/${encodeURIComponent(id)}`, { method: "GET" }));
    return statusOf(json.status, null);
  } catch (error) {
    if (!(error instanceof AttemptError)) throw error;
    const failure = error.failure;
    if (failure.kind === "status" && failure.status === 404) throw new ServiceError("failed", `the provider no longer knows video job ${id}`);
    if (failure.kind === "status" && failure.status >= 400 && failure.status < 500 && failure.status !== 429) {
      throw new ServiceError("failed", `the provider refused the status of video job ${id} (HTTP ${failure.status})`);
    }
    return null;
  }
}

function statusOf(value: unknown, fallback: JobStatus | null): JobStatus {
  if (value === "queued" || value === "in_progress" || value === "completed" || value === "failed") return value;
  if (value === "processing" || value === "running") return "in_progress";
  if (fallback !== null) return fallback;
  throw malformed(`the job status ${JSON.stringify(value)} is not one of queued, in_progress, completed, failed`);
}

function maybeSent(error: unknown): boolean {
  if (!(error instanceof AttemptError)) return true;
  const f = error.failure;
  if (f.kind === "network") return f.sent;
  if (f.kind === "status") return f.status >= 500 && f.status !== 503;
  return f.kind === "aborted" || f.kind === "malformed";
}

export function uncertainMessage(job: JobRow): string {
  return `video job ${job.id} was submitted but its answer never came, so the provider may be making (and billing) it; it is not submitted again automatically — check the provider's dashboard, and run a changed step to make a new one`;
}

export const realTiming: JobTiming = {
  now: () => Date.now(),
  sleep: abortableSleep,
};
