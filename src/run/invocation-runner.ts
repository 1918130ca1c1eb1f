// Wires one AI invocation: configuration (profile, permissions, routes) from src/capabilities,
// the model client, and the orchestrator from src/recovery. The only place that joins the two
// layers for model calls; main.ts hands the resulting runner to the pause coordinator.

import { profileFor, type ProfileSettings, type ResolvedConfig } from "../config/index.js";
import { createModelClient, defaultSleep, type ModelClient } from "../capabilities/chat/model-client.js";
import { runInvocation } from "../recovery/invocation/orchestrator.js";
import type { InvocationRunner } from "../recovery/bridge/pause-coordinator.js";
import type { InvocationEnd, InvocationEvent, InvocationRecord } from "../invocation-record.js";
import type { ModelPort } from "../model-port.js";
import type { Spinner } from "../observe/spinner.js";
import type { FramePort, MailboxPort } from "../recovery/invocation/ports.js";
import { RouteLimiter } from "../capabilities/chat/rate-limiter.js";

export interface InvocationWiring {
  spinner: Spinner;
  onInvocation?: (record: InvocationRecord) => void;
  onEvent?: (event: InvocationEvent) => void;
  /** Replaces the model client (e.g. journal replay); default: the profile's routes over HTTP. */
  modelFor?: (profile: ProfileSettings, live: () => ModelPort) => ModelPort;
  /** SPEC §8: the mailbox of a joined thread or task, by the member handle its pause carries. */
  mailboxFor?: (member: string) => MailboxPort | undefined;
}

const failed = (reason: string): InvocationEnd => ({ status: "failed", reason });

export function makeInvocationRunner(config: ResolvedConfig, wiring: InvocationWiring): InvocationRunner {
  const clients = new Map<string, ModelPort>();
  let count = 0;
  // One per run: `rate_limit` and 429 backoff count every thread, task and process together (SPEC §8).
  const gate = new RouteLimiter(defaultSleep);
  const modelOf = (profile: ProfileSettings): ModelPort => {
    let model = clients.get(profile.name);
    if (!model) {
      const live = () => limited(createModelClient(profile.routes, { gate }), profile.maxConcurrency);
      model = wiring.modelFor ? wiring.modelFor(profile, live) : live();
      clients.set(profile.name, model);
    }
    return model;
  };
  return async ({ mode, request, frame, signal }) => {
    const profile = usableProfile(config, request.directive?.profile ?? null);
    if (typeof profile === "string") return failed(profile);
    const prompts = [profile.prompt, ...request.hints.prompts].filter((p) => p.length > 0);
    const id = `inv-${++count}`;
    const stop = wiring.spinner.start(`${request.location.file}:${request.location.line}`);
    try {
      const { end, stats } = await runInvocation({
        id,
        request: { ...request, hints: { prompts } },
        settings: { maxRounds: profile.maxRounds, timeoutSeconds: profile.timeoutSeconds, permissions: profile.permissions },
        model: modelOf(profile),
        frame: spinnerAware(frame, wiring.spinner, stop),
        signal,
        mailbox: request.mailbox ? wiring.mailboxFor?.(request.mailbox.member) : undefined,
        onEvent: wiring.onEvent,
      });
      wiring.onInvocation?.({ id, filename: request.location.file, line: request.location.line, mode, stats, end });
      return end;
    } finally {
      stop();
    }
  };
}

/** The profile an invocation uses, or why it cannot call a model. */
function usableProfile(config: ResolvedConfig, directiveProfile: string | null): ProfileSettings | string {
  let profile: ProfileSettings;
  try {
    profile = profileFor(config, directiveProfile);
  } catch (error) {
    return (error as Error).message;
  }
  if (profile.routes.length === 0) return `profile "${profile.name}" has no model; set model in aiython.toml or AIYTHON_MODEL`;
  if (!profile.permissions.has("network")) {
    return `the model cannot be called: profile "${profile.name}" does not grant the network permission`;
  }
  return profile;
}

/**
 * The spinner's line never meets the program's output (SPEC §2): it is erased before every op
 * is sent (a tool's code may print), and a terminal op ends it for this invocation before the
 * program resumes. The writes are synchronous (cli/host-stdio.ts), so they reach the terminal
 * before the bridge sees the op.
 */
function spinnerAware(frame: FramePort, spinner: Spinner, stop: () => void): FramePort {
  return {
    op(name, args) {
      if (name === "finish" || name === "recover" || name === "fail") stop();
      spinner.erase();
      return frame.op(name, args);
    },
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
