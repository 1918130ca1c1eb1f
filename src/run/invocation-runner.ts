// Wires one AI invocation: configuration (profile, permissions, routes) from src/config, the
// model client from src/model, and the tool loop from src/invocation. The only place that joins
// them for model calls; program-run.ts hands the resulting runner to the pause coordinator. One model
// client per profile serves the whole run; `warmUp` makes the default profile's client (and
// starts loading openai) before any block needs it.

import path from "node:path";
import { profileFor, type ProfileSettings, type ResolvedConfig } from "../config/index.js";
import { createModelClient, defaultSleep } from "../model/model-client.js";
import { runInvocation } from "../invocation/orchestrator.js";
import { holdYoungGeneration } from "./young-generation.js";
import type { InvocationRunner } from "../invocation/pause-coordinator.js";
import type { InvocationEnd, InvocationEvent, InvocationRecord } from "../invocation-record.js";
import type { ModelPort } from "../model-port.js";
import type { Spinner } from "../observe/spinner.js";
import type { ApprovalPort, EffectJournalPort, HostToolPort, MailboxPort } from "../invocation/ports.js";
import type { ProfileRef } from "../invocation/permissions.js";
import { CodeReader } from "../invocation/code-reading/code-reader.js";
import { TtyApprover } from "./approval/tty-approver.js";
import type { CapabilityRuntime } from "./capability-runtime.js";
import { directiveCapabilityEnd, missingCapabilityHint } from "./capability-hints.js";
import { RouteLimiter } from "../model/rate-limiter.js";
import { CONFIG_DEFAULTS } from "../defaults.js";
import { InFlightLimit, limitedPort } from "./in-flight-limit.js";
import { RecoveryNotices } from "./recovery-notice.js";
import { missingKeyReason, refusingModel } from "./missing-key.js";
import type { RunBatch } from "./batch-wiring.js";
import { scriptedPort } from "./scripted-wiring.js";
import { held, restricted, spinnerAware } from "./invocation-ports.js";

export interface InvocationWiring {
  spinner: Spinner;
  onInvocation?: (record: InvocationRecord) => void;
  onEvent?: (event: InvocationEvent) => void;
  /** Replaces the model client (e.g. journal replay); default: the profile's routes over HTTP. */
  modelFor?: (profile: ProfileSettings, live: () => ModelPort) => ModelPort;
  /** SPEC §10's capabilities (run_plan); none without. */
  capabilities?: CapabilityRuntime;
  /** Stops the run's time limit while the model (or the user) is waited for; returns the release. */
  holdClock?: () => () => void;
  /** `--approve` (SPEC §9): ask on the terminal before each call with effects. */
  approve?: boolean;
  /** SPEC §8: the mailbox of a joined thread or task, by the member handle its pause carries. */
  mailboxFor?: (member: string) => MailboxPort | undefined;
  /** SPEC §4.2: what each recovery decision changes, said on stderr (default: each, as it happens). */
  notices?: RecoveryNotices;
  /** SPEC §11.2: the journal's record of calls with effects. */
  effects?: EffectJournalPort;
  /** SPEC §14: the run's batch offload; each profile's live model becomes its batch port. */
  batch?: RunBatch;
}

const failed = (reason: string): InvocationEnd => ({ status: "failed", reason });

export interface WarmInvocationRunner extends InvocationRunner {
  /** Makes the default profile's model client now and starts loading what its first call needs. */
  warmUp(): void;
}

export function makeInvocationRunner(config: ResolvedConfig, wiring: InvocationWiring): WarmInvocationRunner {
  const clients = new Map<string, ModelPort>();
  let count = 0;
  // One per run: `rate_limit` and 429 backoff count every thread, task and process together (SPEC §8).
  const gate = new RouteLimiter(defaultSleep);
  // One per run too: the run's profile's `max_concurrency` bounds every profile's requests together.
  const inFlight = new InFlightLimit(config.profiles.get(config.defaultProfile)?.maxConcurrency ?? CONFIG_DEFAULTS.maxConcurrency);
  const modelOf = (profile: ProfileSettings): ModelPort => {
    let model = clients.get(profile.name);
    if (!model) {
      const client = () => {
        const scripted = scriptedPort(profile);
        if (scripted) return limitedPort(scripted, inFlight, profile.maxConcurrency);
        const missing = missingKeyReason(profile);
        if (missing) return refusingModel(missing);
        const made = createModelClient(profile.routes, { gate, maxResponseBytes: profile.maxResponseMb * 1024 * 1024 });
        // A failure to load is the first call's to report, with its own message.
        made.preload().catch(() => undefined);
        return limitedPort(made, inFlight, profile.maxConcurrency);
      };
      // In batch mode (SPEC §14) requests wait in batches, unbounded by max_concurrency; a scripted
      // route answers in this process, as it does live.
      const batch = profile.routes[0]?.provider === "script" ? undefined : wiring.batch;
      const live = batch ? () => batch.portFor(profile, client) : client;
      model = wiring.modelFor ? wiring.modelFor(profile, live) : live();
      clients.set(profile.name, model);
    }
    return model;
  };
  const hintsShown = new Set<string>();
  let keyWarned = false;
  const hinted = (end: InvocationEnd): InvocationEnd => {
    missingCapabilityHint(end, hintsShown);
    return end;
  };
  const codeReader = new CodeReader(
    config.projectRoot,
    [...config.profiles.values()].flatMap((p) => (p.envFile ? [p.envFile] : [])),
  );
  const approver = wiring.approve ? runApprover(wiring) : null;
  // Always in recovery mode: the bridge resumes the program only once the notice is out.
  const notices = wiring.notices ?? new RecoveryNotices("each");
  const run: InvocationRunner = async ({ mode, request, frame, signal }) => {
    const profile = usableProfile(config, request.directive?.profile ?? null);
    if (typeof profile === "string") return failed(profile);
    const prompts = [profile.prompt, ...request.hints.prompts].filter((p) => p.length > 0);
    const id = `inv-${++count}`;
    const missing = directiveCapabilityEnd(profile, request);
    if (missing) return hinted(missing);
    const capabilities = (await wiring.capabilities?.sessionFor(profile, request)) ?? undefined;
    // No spinner while the program may write (other threads, a coroutine's loop): it would land in
    // front of that output. An interrupted pause erases it at once (the abort), before the bridge
    // lets the traceback be printed.
    const stop = request.concurrent ? () => undefined : wiring.spinner.start(`${request.location.file}:${request.location.line}`);
    signal.addEventListener(
      "abort",
      () => {
        stop();
        wiring.spinner.erase();
      },
      { once: true },
    );
    const aware = spinnerAware(frame, wiring.spinner, stop);
    try {
      const { end, stats } = await runInvocation({
        id,
        request: Object.assign({}, request, { hints: { prompts } }), // not a spread: docs/architecture.md, "Memory per block"
        settings: {
          maxRounds: profile.maxRounds,
          timeoutSeconds: profile.timeoutSeconds,
          toolTimeoutSeconds: profile.toolTimeoutSeconds,
          permissions: profile.permissions,
          profile: profileRef(config, profile),
        },
        model: held(modelOf(profile), wiring.holdClock),
        frame: restricted(mode === "recovery" ? notices.frame(aware, request) : aware, profile),
        capabilities,
        hostTools: profile.permissions.has("read_code") ? (codeReader satisfies HostToolPort) : undefined,
        approval: approver
          ? {
              approve: (call) => {
                stop();
                return approver.approve(call);
              },
            }
          : undefined,
        signal,
        mailbox: request.mailbox ? wiring.mailboxFor?.(request.mailbox.member) : undefined,
        effects: wiring.effects,
        onEvent: wiring.onEvent,
      });
      holdYoungGeneration(); // the first block is done: see young-generation.ts
      const used = capabilities?.usage.used ? { capabilities: capabilities.usage.stats } : {};
      wiring.onInvocation?.({ id, filename: request.location.file, line: request.location.line, mode, stats, end, ...used });
      // A recovery whose profile denies a permission lets the exception propagate as it is; the
      // user still learns what to set (SPEC §9). An AI block's AIError carries the reason itself.
      if (mode === "recovery" && end.status === "failed" && end.permission) process.stderr.write(`aiython: ${end.reason}\n`);
      // Nor does a recovery that could not ask for want of a key stay silent (said once per run).
      if (mode === "recovery" && end.status === "failed" && !keyWarned && end.reason.includes(missingKeyReason(profile) ?? "\0")) {
        keyWarned = true;
        process.stderr.write(`aiython: recovery could not ask the model: ${missingKeyReason(profile)}\n`);
      }
      return hinted(end);
    } finally {
      stop();
    }
  };
  const warmUp = (): void => {
    const profile = usableProfile(config, null);
    if (typeof profile !== "string") modelOf(profile);
  };
  return Object.assign(run, { warmUp });
}

/** Where a profile's permissions are set, for the message of a denied permission. */
function profileRef(config: ResolvedConfig, profile: ProfileSettings): ProfileRef {
  const file = config.path === null ? "aiython.toml" : path.basename(config.path);
  const key = profile.name === "default" ? "permissions" : `profiles.${profile.name}.permissions`;
  return { name: profile.name, permissionsSetting: `${key} in ${file}` };
}

/** The run's one approver: its prompts erase the spinner and hold the time limit. */
function runApprover(wiring: InvocationWiring): ApprovalPort {
  return new TtyApprover({
    beforePrompt: () => {
      wiring.spinner.erase();
      return wiring.holdClock?.() ?? (() => undefined);
    },
    warn: (line) => process.stderr.write(`aiython: ${line}\n`),
  });
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
    const where = profileRef(config, profile).permissionsSetting;
    return `the model cannot be called: profile "${profile.name}" does not grant the network permission (to allow it, add "network" to ${where})`;
  }
  return profile;
}
