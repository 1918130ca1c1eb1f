// The bridge protocol as types (docs/protocol.md is the description; the bridge's mirror is
// bridge-py/aiython_bridge/protocol.py; test/protocol-agreement.test.ts checks that all three
// name the same messages and fields). Every message and every payload the host reads or writes
// is typed here, so a payload is never cast unchecked: the channel checks the envelope of each
// incoming message (isBridgeMessage), and the types say what the bridge promises inside it.

import type { CompileItem, CompileVerdict } from "../../frontend/oracle.js";
import type { Plan } from "../../frontend/plan.js";
import type { InvocationMode, RecoverAction } from "../../invocation-record.js";

export const PROTOCOL_VERSION = 4;
export const MAX_FRAME = 64 * 1024 * 1024;
export const MIN_PYTHON: readonly [number, number] = [3, 11];

export type { CompileItem, CompileVerdict, Plan };

export interface PythonInfo {
  version: string;
  version_info: [number, number, number];
  executable: string;
  implementation: string;
}

export type RunTarget =
  | { kind: "file"; path: string }
  | { kind: "directory"; path: string }
  | { kind: "module"; name: string }
  | { kind: "code"; code: string }
  | { kind: "stdin" }
  /** `aiython` on a terminal: the console (SPEC §2), as `python3` with no arguments. */
  | { kind: "console" };

export interface RunOptions {
  /** A model is configured: blocks pause instead of raising "no model configured". */
  model_configured: boolean;
  /** `-i`: enter the interactive console after the program. */
  inspect: boolean;
  /** `-x`: the script's first line is not part of the program (its newline is, so lines keep their numbers). */
  skip_first_line: boolean;
  /** Folder of aiython.toml (or the script's folder): what counts as project code. */
  project_root: string;
  /** Include small primitive values of related objects in requests (`context_values`, SPEC §5.1). */
  context_values: boolean;
  /** The preparation cache (SPEC §4.1), or null when it is off (`cache = false`, AIYTHON_NO_CACHE). */
  cache: PreparationCacheOptions | null;
  /** MB of address space for the program's process (`--memory-limit`, SPEC §9); absent: no limit. */
  memory_limit?: number;
}

/** `cache` of RunOptions: where prepared sources are kept, what keys them, the size bound. */
export interface PreparationCacheOptions {
  /** Absolute folder: the project's `.aiython/cache`. */
  dir: string;
  /** aiython's version and build fingerprint, part of every key. */
  version: string;
  max_bytes: number;
}

/** `error` of a failed request or op: `type` names the failure (see docs/protocol.md). */
export interface ErrorInfo {
  type: string;
  message: string;
}

// ---- pauses ----------------------------------------------------------------------------------

export interface SourceWindow {
  file: string;
  start_line: number;
  end_line: number;
  source: string;
}

/** A value's description (SPEC §5.2): `value` for small primitives, structure otherwise. */
export interface Descriptor {
  handle?: string;
  type: string;
  module: string;
  qualname: string;
  value?: unknown;
  [detail: string]: unknown;
}

/** A related or frame object of a pause request: a descriptor under the name it is bound to. */
export interface NamedDescriptor extends Descriptor {
  name: string;
  scope?: string;
}

export interface PauseLocation {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** Qualified name of the enclosing function, or null at module or class level. */
  function: string | null;
}

export interface RecoveryDetails {
  exception_type: string;
  message: string;
  origin: { file: string; line: number };
  attempt: number;
  retry_allowed: boolean;
  target: string | null;
  origin_context?: SourceWindow;
}

/** The request content of SPEC §5.1, as the bridge builds it when a thread pauses. */
export interface PauseRequest {
  mode: InvocationMode;
  /** e.g. "tickets.py:1" (AI block) or "tickets.py:c3" (checkpoint). */
  block_id: string;
  /** The block or statement text, verbatim. */
  statement: string;
  location: PauseLocation;
  /** Assignment target name, or null. */
  target: string | null;
  /** e.g. "Literal['bug', 'billing']"; null means no annotation (Any). */
  output_type: string | null;
  output_schema: Record<string, unknown> | null;
  requires_result: boolean;
  code_context: SourceWindow;
  /** Descriptors or small values of the names the block text mentions (§5.1). */
  related_objects: NamedDescriptor[];
  frame_objects: NamedDescriptor[];
  /** Directive prompts of the block, in order (the host adds the profile's prompt first). */
  hints: { prompts: string[] };
  /** Syntax mode: the block's directive (`profile`, `prompts`, `capability`, `provider`). */
  directive?: { profile?: string | null; prompts?: string[]; capability?: string | null; provider?: string | null };
  /** Recovery mode only. */
  recovery?: RecoveryDetails;
  /** The thread or task that paused has joined a mailbox (SPEC §8): its member handle. */
  mailbox?: { member: string };
}

/** An `outcome` argument of `finish` / `recover` (SPEC §5.2). */
export type Outcome =
  | { kind: "literal"; value: unknown }
  | { kind: "expression"; code: string }
  | { kind: "reference"; id: string }
  | { kind: "handle"; id: string }
  | { kind: "none" }
  | { kind: "error"; reason: string; missing_capability?: string };

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
  finish: { outcome: Outcome; call_id: string; raw_arguments: string };
  /** Terminal in recovery mode. */
  recover: { action: RecoverAction; outcome?: Outcome; explanation?: string; call_id: string; raw_arguments: string };
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
  fail: { ok: true };
  restrict: { ok: true };
}

/** The answer to one op, as the orchestrator sees it. */
export type FrameOpResult = { ok: true; value: unknown } | { ok: false; error: ErrorInfo };

// ---- messages --------------------------------------------------------------------------------

export interface HelloMessage {
  type: "hello";
  protocol: number;
  pid: number;
  python: PythonInfo;
  /** Only from a child of the run, on its own connection to the run folder's socket (SPEC §8). */
  child?: ChildHello;
}

/** How a child of the run introduces itself: the run's secret, and for a spawned interpreter its program. */
export interface ChildHello {
  secret: string;
  /** The process that made it. */
  parent: number;
  /** Made by os.fork(): the program is already running; nothing is sent back. */
  forked: boolean;
  /** A spawned interpreter's program, as python3 would run it: the host answers `init` and `run`. */
  target?: RunTarget;
  argv?: string[];
  orig_argv?: string[];
}

/** The value answering `children`: where children of the run connect, and how they prove it. */
export interface RunFolder {
  dir: string;
  secret: string;
}

/** bridge → host: the run folder, made at the first ask (SPEC §8). */
export interface ChildrenRequest {
  type: "children";
  id: string;
  /** The interpreter the program's spawned children run (sys.executable). */
  executable: string;
}


/** bridge → host: one mailbox operation (SPEC §8); answered with a MailboxError on failure. */
export interface MailRequest {
  type: "mail";
  id: string;
  op: string;
  args: Record<string, unknown>;
}

export interface InitMessage {
  type: "init";
  protocol: number;
  /** Signal numbers the host inherited as ignored (SIG_IGN): the bridge ignores them before the program runs. */
  ignored_signals: number[];
}

export interface CompileRequest {
  type: "compile";
  id: string;
  items: CompileItem[];
}

/** Runs the program; no answer: the bridge ends with `exit`. */
export interface RunRequest {
  type: "run";
  target: RunTarget;
  argv: string[];
  orig_argv: string[];
  options: RunOptions;
}

/** bridge → host: plan this source (the entry program, or an imported project module). */
export interface PlanRequest {
  type: "plan";
  id: string;
  /** Absolute path of the source file, or `<stdin>` / `<string>`. */
  path: string;
  /** The source as CPython decodes it. */
  source: string;
  /** `__main__` for the entry program, else the module's full name. */
  module: string;
  /** The program's main module: its top-level statements are checkpointed. */
  entry: boolean;
  /** Input typed at the console (SPEC §2): diagnostics are shown there and the run goes on. */
  interactive?: boolean;
}

export interface PauseMessage {
  type: "pause";
  pause: string;
  mode: InvocationMode;
  request: PauseRequest;
}

export interface PauseEndMessage {
  type: "pause_end";
  pause: string;
  /** The paused thread resumed because it was interrupted (e.g. Ctrl-C), not by a terminal op. */
  interrupted: boolean;
}

export type OpMessage = {
  [K in OpName]: { type: "op"; pause: string; id: string; op: K; args: OpArguments[K] };
}[OpName];

export interface ExitMessage {
  type: "exit";
  status: number;
  interrupted: boolean;
  /** True when the program ended with an uncaught AIBudgetError (the host exits 75, SPEC §13). */
  budget?: boolean;
}

export interface FatalMessage {
  type: "fatal";
  message: string;
  traceback?: string;
}

/** The answer to a request; `pause` is set on the answer to an op. */
export type ResultMessage =
  | { type: "result"; id: string; pause?: string; ok: true; value: unknown }
  | { type: "result"; id: string; pause?: string; ok: false; error: ErrorInfo };

/** Messages the bridge sends. */
export type BridgeMessage =
  | HelloMessage
  | ResultMessage
  | PlanRequest
  | PauseMessage
  | PauseEndMessage
  | ChildrenRequest
  | MailRequest
  | ExitMessage
  | FatalMessage;

/** Messages the host sends. */
export type HostMessage = InitMessage | CompileRequest | RunRequest | OpMessage | ResultMessage;

/** Value of a successful answer, per host request. `run` has none: the program runs and ends with `exit`. */
export interface RequestValues {
  compile: CompileVerdict[];
}

/** Value of a successful answer to `plan`: a plan, or null to run or import the source unchanged. */
export type PlanAnswer = Plan | null;

/** Required fields of each message the bridge may send (the envelope the channel checks). */
const BRIDGE_FIELDS: Record<BridgeMessage["type"], readonly string[]> = {
  hello: ["protocol", "pid", "python"],
  result: ["id", "ok"],
  plan: ["id", "path", "source", "module", "entry"],
  pause: ["pause", "mode", "request"],
  pause_end: ["pause", "interrupted"],
  children: ["id", "executable"],
  mail: ["id", "op", "args"],
  exit: ["status", "interrupted"],
  fatal: ["message"],
};

export function isBridgeMessage(value: unknown): value is BridgeMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string" || !Object.hasOwn(BRIDGE_FIELDS, type)) return false;
  return BRIDGE_FIELDS[type as BridgeMessage["type"]].every((field) => field in value);
}
