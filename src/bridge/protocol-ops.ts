// The frame operations (docs/protocol.md's "Frame operations"): each op's arguments, what it
// answers with, and the outcome a terminal op carries (SPEC §5.2). protocol.ts re-exports all of it.

import type { RecoverAction } from "../invocation-record.js";
import type { Descriptor, ErrorInfo, NamedDescriptor, SourceWindow } from "./protocol-payloads.js";

/** An `outcome` argument of `finish` / `recover` (SPEC §5.2). */
export type Outcome =
  | { kind: "literal"; value: unknown }
  | { kind: "expression"; code: string }
  | { kind: "reference"; id: string }
  | { kind: "handle"; id: string }
  | { kind: "none" }
  | { kind: "error"; reason: string; missing_capability?: string };

/** An outcome as `finish` / `recover` send it: a literal's value is read from `raw_arguments`, not sent twice. */
export type OpOutcome = Exclude<Outcome, { kind: "literal" }> | { kind: "literal" };

/** Every frame operation and its arguments: the tool's own plus `call_id` (the model's call id). */
export interface OpArguments {
  evaluate: { code: string; result_id?: string; call_id: string };
  execute: { code: string; call_id: string };
  get_binding: { name: string; result_id?: string; call_id: string };
  set_binding: { name: string; handle: string; call_id: string };
  inspect: { handle: string; depth?: number; limit?: number; call_id: string };
  get_frame_code: { frame?: "active" | "origin"; call_id: string };
  frames: { call_id: string };
  /** run_plan (SPEC §10): the JSON values of `$binding` / `$handle` references, before the plan is validated. */
  read_values: { refs: ({ kind: "binding"; name: string } | { kind: "handle"; id: string })[]; call_id: string };
  /** run_plan, resume_job: step results (JSON texts, floats as `1.0`) held as objects of this invocation. */
  hold_values: { values_json: string[]; call_id: string };
  /** Terminal: the block's value. `raw_arguments` is the model's JSON text (3.0 stays a float). */
  finish: { outcome: OpOutcome; call_id: string; raw_arguments: string };
  /** Recovery mode: the decision, checked and kept; the pause goes on until `resume`. */
  recover: { action: RecoverAction; outcome?: OpOutcome; explanation?: string; call_id: string; raw_arguments: string };
  /** Terminal, the host's own, after an accepted `recover`: the host has said what the decision changes, the program may go on. */
  resume: Record<string, never>;
  /** Terminal, the host's own: the invocation failed; `budget`: a budget refused a request (AIBudgetError, SPEC §13). */
  fail: { reason: string; budget?: boolean };
  /** The host's own: permissions the profile does not grant that the bridge enforces (SPEC §9). */
  restrict: { denied: string[] };
}

export type OpName = keyof OpArguments;

/** What each operation answers with when it succeeds. */
export interface OpValues {
  evaluate: Descriptor;
  execute: { ok: true };
  get_binding: Descriptor & { scope: "local" | "enclosing" | "invocation" | "global" | "builtin" };
  set_binding: { ok: true };
  inspect: Descriptor;
  get_frame_code: SourceWindow;
  frames: { frames: { function: string; file: string; line: number; active: boolean; origin: boolean; locals: NamedDescriptor[] }[] };
  read_values: { values: unknown[] };
  hold_values: { descriptors: Descriptor[] };
  finish: { ok: true };
  recover: { ok: true };
  resume: { ok: true };
  fail: { ok: true };
  restrict: { ok: true };
}

/** The answer to one op, as the orchestrator sees it. */
export type FrameOpResult = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };
