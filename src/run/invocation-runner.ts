// Wires one AI invocation: configuration (profile, permissions, routes) from src/capabilities,
// the model client, and the orchestrator from src/recovery. The only place that joins the two
// layers for model calls; main.ts hands the resulting runner to the pause coordinator.

import { profileFor, type ProfileSettings, type ResolvedConfig } from "../config/index.js";
import { createModelClient, type ModelClient } from "../capabilities/chat/model-client.js";
import { runInvocation } from "../recovery/invocation/orchestrator.js";
import type { InvocationRunner } from "../recovery/bridge/pause-coordinator.js";
import type { InvocationEnd, InvocationEvent, InvocationRecord } from "../invocation-record.js";
import type { ModelPort } from "../model-port.js";
import type { Spinner } from "../observe/spinner.js";

export interface InvocationWiring {
  spinner: Spinner;
  onInvocation?: (record: InvocationRecord) => void;
  onEvent?: (event: InvocationEvent) => void;
  /** Replaces the model client (e.g. journal replay); default: the profile's routes over HTTP. */
  modelFor?: (profile: ProfileSettings, live: () => ModelPort) => ModelPort;
}

const failed = (reason: string): InvocationEnd => ({ status: "failed", reason });

export function makeInvocationRunner(config: ResolvedConfig, wiring: InvocationWiring): InvocationRunner {
  const clients = new Map<string, ModelPort>();
  let count = 0;
  return async ({ mode, request, frame, signal }) => {
    let profile: ProfileSettings;
    try {
      profile = profileFor(config, request.directive?.profile ?? null);
    } catch (error) {
      return failed((error as Error).message);
    }
    if (profile.routes.length === 0) {
      return failed(`profile "${profile.name}" has no model; set model in aiython.toml or AIYTHON_MODEL`);
    }
    if (!profile.permissions.has("network")) {
      return failed(`the model cannot be called: profile "${profile.name}" does not grant the network permission`);
    }
    let model = clients.get(profile.name);
    if (!model) {
      const live = () => limited(createModelClient(profile.routes), profile.maxConcurrency);
      model = wiring.modelFor ? wiring.modelFor(profile, live) : live();
      clients.set(profile.name, model);
    }
    const prompts = [profile.prompt, ...request.hints.prompts].filter((p) => p.length > 0);
    const id = `inv-${++count}`;
    const stop = wiring.spinner.start(`${request.location.file}:${request.location.line}`);
    try {
      const { end, stats } = await runInvocation({
        id,
        request: { ...request, hints: { prompts } },
        settings: { maxRounds: profile.maxRounds, timeoutSeconds: profile.timeoutSeconds, permissions: profile.permissions },
        model,
        frame,
        signal,
        onEvent: wiring.onEvent,
      });
      wiring.onInvocation?.({ id, filename: request.location.file, line: request.location.line, mode, stats, end });
      return end;
    } finally {
      stop();
    }
  };
}

/** Bounds in-flight model requests of one client (`max_concurrency`, SPEC §8). */
function limited(client: ModelClient, max: number): ModelPort {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  return {
    async complete(request, options) {
      while (inFlight >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight++;
      try {
        return await client.complete(request, options);
      } finally {
        inFlight--;
        waiting.shift()?.();
      }
    },
  };
}
