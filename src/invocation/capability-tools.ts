// The capability tools of SPEC §10 — `run_plan`, `jobs`, `resume_job` — for the model tool loop:
// when they are offered, their JSON Schemas, and how a validated call runs. The work itself is
// behind the CapabilityPort (src/capability-port.ts); this file only moves values between the
// port and the paused frame: `read_values` for a plan's `$binding` / `$handle` references, and
// `hold_values` so every step result comes back as a handle the model can finish with.

import type { CapabilityPort, PlanAnswer, PlanFrame, PlanValueRef, StepOutcome } from "../capability-port.js";
import { CAPABILITY_NAMES, PLAN_DEFAULTS } from "../host-tool-defaults.js";
import type { InvocationEnd } from "../invocation-record.js";
import type { FrameOpResult, FramePort } from "./ports.js";

export const CAPABILITY_TOOLS = ["run_plan", "jobs", "resume_job"] as const;
export type CapabilityTool = (typeof CAPABILITY_TOOLS)[number];

export function isCapabilityTool(name: string): name is CapabilityTool {
  return (CAPABILITY_TOOLS as readonly string[]).includes(name);
}

/** Why a capability tool is not offered, or null. `available` is null when the invocation has no port. */
export function capabilityToolUnavailable(name: CapabilityTool, available: readonly string[] | null): string | null {
  if (available === null || available.length === 0) {
    return `tool "${name}" needs a capability route; none is configured ([capabilities.NAME] in aiython.toml)`;
  }
  if (name !== "run_plan" && !available.includes("video")) return `tool "${name}" is for video jobs, and no video route is configured`;
  return null;
}

type Schema = Record<string, unknown>;

const STEP_ID = "^[A-Za-z_][A-Za-z0-9_-]{0,63}$";

/** `capabilities` narrows the capability enum; validation uses every name (the port names what is missing). */
export function capabilityToolParameters(name: CapabilityTool, capabilities: readonly string[] = CAPABILITY_NAMES): Schema {
  switch (name) {
    case "run_plan":
      return {
        type: "object",
        properties: {
          steps: {
            type: "array",
            minItems: 1,
            maxItems: PLAN_DEFAULTS.maxSteps,
            items: {
              type: "object",
              properties: {
                id: { type: "string", pattern: STEP_ID },
                capability: { type: "string", enum: [...capabilities] },
                params: { type: "object" },
                provider: { type: "string" },
                cache: { type: "boolean" },
              },
              required: ["id", "capability", "params"],
              additionalProperties: false,
            },
          },
        },
        required: ["steps"],
        additionalProperties: false,
      };
    case "jobs":
      return { type: "object", properties: {}, additionalProperties: false };
    case "resume_job":
      return { type: "object", properties: { id: { type: "integer", minimum: 1 } }, required: ["id"], additionalProperties: false };
  }
}

export function capabilityToolDescription(name: CapabilityTool, port: CapabilityPort): string {
  switch (name) {
    case "run_plan":
      return (
        'Run capability steps; all are checked before any runs. A param value may be {"$ref":step_id,"path":[key or index...]}, ' +
        '{"$binding":name}, {"$handle":"object-N"} or {"$asset":"project/relative/path"}. Each ok step gives a handle; finish with it. ' +
        `Capabilities: ${port.guide()}`
      );
    case "jobs":
      return "List long capability jobs (video) of this project.";
    case "resume_job":
      return "Wait for a pending job by id; its result as a handle.";
  }
}

export interface CapabilityCallContext {
  port: CapabilityPort;
  frame: FramePort;
  callId: string;
  signal: AbortSignal;
  deadline: number;
}

/** A capability call's answer: like a frame op's, or the end of the invocation (a capability with no route). */
export type CapabilityCallResult = FrameOpResult | { end: InvocationEnd };

export async function runCapabilityTool(name: CapabilityTool, args: Record<string, unknown>, ctx: CapabilityCallContext): Promise<CapabilityCallResult> {
  const options = { signal: ctx.signal, deadline: ctx.deadline };
  switch (name) {
    case "run_plan": {
      const answer = await ctx.port.runPlan(args.steps, planFrame(ctx), options);
      return planResult(answer, ctx);
    }
    case "jobs":
      return { ok: true, value: { jobs: await ctx.port.listJobs() } };
    case "resume_job": {
      const outcome = await ctx.port.resumeJob(args.id as number, options);
      const [shown] = await held([outcome], ctx);
      return "ok" in shown ? shown : { ok: true, value: { job: args.id, ...shown.step } };
    }
  }
}

function planFrame(ctx: CapabilityCallContext): PlanFrame {
  return {
    async readValues(refs: readonly PlanValueRef[]) {
      const result = await ctx.frame.op("read_values", { refs: [...refs], call_id: ctx.callId });
      if (!result.ok) return { ok: false as const, message: result.error.message };
      return { ok: true as const, values: (result.value as { values: unknown[] }).values };
    },
  };
}

async function planResult(answer: PlanAnswer, ctx: CapabilityCallContext): Promise<CapabilityCallResult> {
  switch (answer.kind) {
    case "rejected":
      return { ok: false, error: { type: "PlanRejected", message: `${answer.message}; no step ran` } };
    case "missing_capability":
      return { end: { status: "failed", reason: answer.message, missing_capability: answer.capability } };
    case "ran": {
      const shown = await held(
        answer.steps.map((step) => step.outcome),
        ctx,
      );
      const steps: Record<string, unknown> = {};
      for (const [i, step] of answer.steps.entries()) {
        const one = shown[i];
        if ("ok" in one) return one;
        steps[step.id] = one.step;
      }
      return { ok: true, value: { steps } };
    }
  }
}

/** Each outcome as the model sees it: ok results held in the frame and shown by their descriptors. */
async function held(outcomes: StepOutcome[], ctx: CapabilityCallContext): Promise<({ step: Record<string, unknown> } | FrameOpResult)[]> {
  const texts = outcomes.flatMap((outcome) => (outcome.status === "ok" ? [outcome.valueJson] : []));
  let descriptors: unknown[] = [];
  if (texts.length > 0) {
    const result = await ctx.frame.op("hold_values", { values_json: texts, call_id: ctx.callId });
    if (!result.ok) return [result];
    descriptors = (result.value as { descriptors: unknown[] }).descriptors;
  }
  let next = 0;
  return outcomes.map((outcome) => {
    if (outcome.status !== "ok") {
      const { status, ...rest } = outcome;
      return { step: { status, ...rest } };
    }
    // Where an answer came from (the cache, the journal) is not shown: a --replay must send the
    // model the very conversation that was recorded, or its next request has no recorded answer.
    return { step: { status: "ok", result: descriptors[next++], ...(outcome.reused ? { reused: true } : {}) } };
  });
}
