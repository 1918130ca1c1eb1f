// The shapes of a run_plan plan inside src/capabilities (SPEC §10): steps as the model writes
// them, the four kinds of reference a param value may be, and a step once validated. The tool's
// own schema (invocation/capability-tools.ts) checks the outer shape; validate-plan.ts
// checks everything else before any step runs.

import type { CapabilityName } from "../names.js";

export type PathKey = string | number;

/** `{"$ref": step, "path": [...]}`: the result of an earlier step, or a part of it. */
export interface StepRef {
  $ref: string;
  path?: PathKey[];
}

/** A step as the model wrote it (after the tool schema accepted its outer shape). */
export interface RawStep {
  id: string;
  capability: string;
  params: Record<string, unknown>;
  provider?: string;
  cache?: boolean;
}

/**
 * A step the whole-plan validation accepted: `$binding` / `$handle` values substituted, static
 * `$asset` paths checked and normalised (project-relative), `$ref`s left in place for run time.
 */
export interface PlannedStep {
  id: string;
  capability: CapabilityName;
  params: Record<string, unknown>;
  /** Ids of the steps its `$ref`s name. */
  needs: string[];
  provider: string | null;
  /** False: skip the cache (the result is still stored). True by default for cacheable capabilities. */
  cache: boolean;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
