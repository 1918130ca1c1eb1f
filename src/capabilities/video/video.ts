// The `video` capability (SPEC §10) in its two actions. `understand`: frames of a video (image
// files, or a folder of them, as `{"$asset": path}`; extract them first with a tool of your
// choice) go to the vision route with the prompt; the result is its text, pure and cached.
// `generate`: a job at the video route's provider (video-jobs.ts), persisted, polled within the
// invocation's deadline and written to `.aiython/artifacts/video-NAME-KEY.mp4`; the result is the
// file's path, or a pending job that `resume_job` or `aiython jobs resume ID` finishes.

import fs from "node:fs";
import { extensionOf } from "../artifacts.js";
import type { CapabilityHandler, StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import { asset, integer, listOf, oneOf, params, text } from "../plan/schema-parts.js";
import { serviceKey } from "../service/call-service.js";
import { ServiceError } from "../service/service-error.js";
import { askChat } from "../vision/ask-chat.js";
import { imageParts } from "../vision/image-parts.js";
import { awaitJob, realTiming, submitJob, uncertainMessage, type VideoRequest } from "./video-jobs.js";

export const video: CapabilityHandler = {
  name: "video",
  guide: "video {action: understand, frames: [$asset images or folder], prompt} -> text; {action: generate, prompt, seconds?, size?, name?} -> video file path (or a pending job)",
  params: params(
    {
      action: oneOf(["understand", "generate"]),
      prompt: text(),
      frames: listOf(asset, 64),
      seconds: integer(1, 120),
      size: text(),
      name: text(),
      detail: oneOf(["low", "high", "auto"]),
    },
    ["action", "prompt"],
  ),
  needs: (p) => (p.action === "understand" ? "vision" : "video"),
  pure: (p) => p.action === "understand",
  writesFiles: (p) => p.action === "generate",
  floats: [],
  run: (p, ctx) => (p.action === "understand" ? understand(p, ctx) : generate(p, ctx)),
};

async function understand(p: Record<string, unknown>, ctx: StepContext): Promise<string> {
  if (p.frames === undefined) throw new StepError(`video understand needs "frames": [{"$asset": "frames/"}] (image files of the video, or a folder of them)`);
  const { parts, keys } = imageParts(p.frames as unknown[], ctx, p.detail as string | undefined);
  const prompt = `These are frames of one video, in order. ${p.prompt as string}`;
  return askChat({ capability: "vision", system: null, content: [{ type: "text", text: prompt }, ...parts], request: { video_frames: keys, prompt: p.prompt } }, ctx);
}

async function generate(p: Record<string, unknown>, ctx: StepContext): Promise<string> {
  if (p.frames !== undefined) throw new StepError(`"frames" goes with action "understand"; generate takes prompt, seconds, size`);
  const route = ctx.routes("video")[0];
  const request: VideoRequest = { prompt: p.prompt as string, seconds: (p.seconds as number | undefined) ?? null, size: (p.size as string | undefined) ?? null };
  const key = serviceKey({ capability: "video", routes: [route], request });
  const artifactName = ctx.artifacts.name("video", (p.name as string | undefined) ?? ctx.stepId, key, "mp4");
  const answer = await ctx.call({
    capability: "video",
    endpoint: "/videos",
    routes: [route],
    request,
    cacheable: false,
    effect: true,
    perform: async (r, env) => {
      const store = await ctx.store();
      let job = store.jobByKey(key);
      if (job?.status === "completed" && job.artifact && fs.existsSync(job.artifact)) return { json: { mime: "video/mp4", job: job.id }, blob: fs.readFileSync(job.artifact) };
      if (job && (job.status === "submitting" || job.status === "uncertain")) throw new ServiceError("uncertain", uncertainMessage(job));
      if (!job || job.status === "failed") {
        const id = store.createJob({
          key,
          capability: "video",
          route: r.id,
          model: r.model,
          status: "submitting",
          provider_job_id: null,
          origin: ctx.origin,
          artifact_name: artifactName,
        });
        job = await submitJob(store, id, r, env, request);
      }
      const { bytes, mime } = await awaitJob(store, job, r, env, realTiming);
      return { json: { mime, job: job.id }, blob: bytes };
    },
  });
  const { mime, job } = answer.json as { mime: string | null; job: number };
  const written = ctx.artifacts.write(artifactName.replace(/\.mp4$/, `.${extensionOf(mime, "mp4")}`), answer.blob ?? Buffer.alloc(0));
  if (!answer.replayed) (await ctx.store()).updateJob(job, { status: "completed", artifact: written });
  return written;
}
