// The capability port: what one AI invocation sees of SPEC §10's capabilities, shared like
// model-port.ts (neutral, imports nothing). src/capabilities implements it per invocation (plan
// validation and execution, routes, caches, jobs); the `run_plan`, `jobs` and `resume_job` tools
// of src/invocation use it, and never see a route, a key or the SQLite store.

/** A `$binding` / `$handle` reference of a plan, read from the paused frame as JSON. */
export type PlanValueRef = { kind: "binding"; name: string } | { kind: "handle"; id: string };

/** The frame side a plan needs before it is validated: the JSON values of its frame references. */
export interface PlanFrame {
  /** One value per reference, in order; a reference that cannot be read is a message naming it. */
  readValues(refs: readonly PlanValueRef[]): Promise<{ ok: true; values: unknown[] } | { ok: false; message: string }>;
}

/** How one step of a plan ended. `valueJson` is the result as JSON text in which floats stay floats (`1.0`). */
export type StepOutcome =
  | { status: "ok"; valueJson: string; cached?: boolean; reused?: boolean; replayed?: boolean }
  /** The provider's job outlived the invocation: `job` is its id for `resume_job` / `aiython jobs resume`. */
  | { status: "pending"; job: number; message: string }
  /** The request may have reached the provider; it is never resubmitted automatically. */
  | { status: "uncertain"; message: string }
  | { status: "error"; message: string }
  | { status: "skipped"; message: string };

export type PlanAnswer =
  /** The plan was refused as a whole before anything ran. */
  | { kind: "rejected"; message: string }
  /** The plan names a capability that has no route: the invocation ends with an `error` outcome naming it. */
  | { kind: "missing_capability"; capability: string; message: string }
  | { kind: "ran"; steps: { id: string; outcome: StepOutcome }[] };

export interface CapabilityCallOptions {
  signal?: AbortSignal;
  /** Absolute deadline of the invocation, ms since the epoch. */
  deadline: number;
}

/** A long job as the model and `aiython jobs list` see it (no prompt, no program data). */
export interface JobSummary {
  id: number;
  capability: string;
  status: "submitting" | "uncertain" | "queued" | "in_progress" | "completed" | "failed";
  route: string;
  created_at: string;
  /** Where the block that made it stands, e.g. "clip.py:4". */
  origin: string | null;
  artifact: string | null;
}

export interface CapabilityPort {
  /** The capabilities this invocation can use (routed, or local with the route they need). */
  available(): readonly string[];
  /** One short line per available capability: its params and its result, for the run_plan tool's description. */
  guide(): string;
  /** Validates the whole plan (nothing runs when it fails), then runs it. `steps` is the model's argument as given. */
  runPlan(steps: unknown, frame: PlanFrame, options: CapabilityCallOptions): Promise<PlanAnswer>;
  listJobs(): Promise<JobSummary[]>;
  resumeJob(id: number, options: CapabilityCallOptions): Promise<StepOutcome>;
}
