// Capabilities for one run (SPEC §10): the project's store, opened at the first step that needs
// it and closed when the run ends, and one CapabilityPort per invocation for the invocation's
// profile — with --replay (answers from the store, no request), whether the journal records (the
// answers of effects are kept for replay), and the 24 h cache (off with AIYTHON_NO_CACHE=1).
// The capabilities' code (and the store's) loads only for a profile that routes a capability, so a
// run without any pays nothing for them.

import type { CapabilitySession } from "../capabilities/plan/plan-session.js";
import type { ProfileSettings, ResolvedConfig } from "../config/index.js";
import type { CapabilityStore } from "../capabilities/store.js";
import type { CapabilityStoreDb } from "../journal/index.js";
import type { PauseRequest } from "../bridge/protocol.js";

export interface CapabilityRuntimeOptions {
  replay: boolean;
  record: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  warn: (message: string) => void;
}

export class CapabilityRuntime {
  private opening: Promise<CapabilityStoreDb | null> | null = null;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly opts: CapabilityRuntimeOptions,
  ) {}

  /** The store, or null (with one warning) when the project's SQLite cannot be used. */
  readonly store = (): Promise<CapabilityStore | null> => {
    this.opening ??= import("../journal/index.js")
      .then(({ openCapabilityStore }) => openCapabilityStore({ projectRoot: this.config.projectRoot, cwd: this.opts.cwd }))
      .catch((error: Error) => {
        this.opts.warn(`capability steps cannot use the project's store: ${error.message}`);
        return null;
      });
    return this.opening;
  };

  async sessionFor(profile: ProfileSettings, request: PauseRequest): Promise<CapabilitySession | null> {
    if (Object.keys(profile.capabilities).length === 0) return null;
    const { capabilitySession } = await import("../capabilities/plan/plan-session.js");
    return capabilitySession({
      profile,
      projectRoot: this.config.projectRoot,
      store: this.store,
      mode: { replay: this.opts.replay, record: this.opts.record, cache: this.opts.env.AIYTHON_NO_CACHE !== "1" },
      directiveProvider: request.directive?.provider ?? null,
      origin: `${request.location.file}:${request.location.line}`,
    });
  }

  async close(): Promise<void> {
    const store = await this.opening;
    store?.close();
  }
}
