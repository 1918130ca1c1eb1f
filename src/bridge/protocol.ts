// The bridge protocol as types (docs/protocol.md is the description; the bridge's mirror is
// bridge-py/aiython_bridge/protocol.py; test/protocol-agreement.test.ts checks that all three
// name the same messages and fields). Every message and every payload the host reads or writes
// is typed here, so a payload is never cast unchecked: the channel checks the envelope of each
// incoming message (isBridgeMessage), and the types say what the bridge promises inside it.
// The payloads live in protocol-payloads.ts and the frame operations in protocol-ops.ts; this file
// holds the version, the messages and the envelope check, and re-exports both, so importers name
// this file only.

import type { CompileItem, CompileVerdict } from "../frontend/oracle.js";
import type { Plan } from "../frontend/plan.js";
import type { InvocationMode } from "../invocation-record.js";
import type { OpArguments, OpName } from "./protocol-ops.js";
import type { CheckpointInfo, ErrorInfo, PauseRequest, PythonInfo, RunOptions, RunTarget } from "./protocol-payloads.js";

export const PROTOCOL_VERSION = 9;
export const MAX_FRAME = 64 * 1024 * 1024;
/** One message, all its frames together (a model's answer as large as max_response_mb allows). */
export const MAX_MESSAGE = 1024 * 1024 * 1024;
export const MIN_PYTHON: readonly [number, number] = [3, 11];

export type { CompileItem, CompileVerdict, Plan };
export type * from "./protocol-payloads.js";
export type * from "./protocol-ops.js";

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

/**
 * `--explain` (SPEC §3.4): the checkpoints a run of `source` would have (SPEC §4.2), which the
 * bridge selects on the program as it runs, the plan's rewritten source. Before `run` only. Sent
 * first with `plan: null` and `parts` (the frontend's windows), which the bridge lists ahead as
 * the source has them while it waits (answered `null`), then with the plan.
 */
export interface CheckpointsRequest {
  type: "checkpoints";
  id: string;
  /** The source the plan is made of. */
  source: string;
  /** Its absolute path, or `<stdin>` / `<string>` (ids name its base name). */
  filename: string;
  /** The program's main module: its top-level statements are checkpointed. */
  entry: boolean;
  /** The frontend's plan of it (no `rewritten` and no blocks for a source CPython compiles), or null with `parts`. */
  plan: Plan | null;
  /** Runs of whole top-level statements, [first line, last line] (1-based, inclusive). */
  parts?: [number, number][];
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
  /** Project source files this process imported since its last pause (absolute paths): the journal keeps their digests (SPEC §11.2). */
  modules?: string[];
}

export interface PauseEndMessage {
  type: "pause_end";
  pause: string;
  /** The paused thread resumed because it was interrupted (e.g. Ctrl-C), not by a terminal op. */
  interrupted: boolean;
}

/** A source prepared from the cache holds AI blocks: the host loads what the first one needs (no `plan` told it). */
export interface BlocksAheadMessage {
  type: "blocks_ahead";
}

export type OpMessage = {
  [K in OpName]: { type: "op"; pause: string; id: string; op: K; args: OpArguments[K] };
}[OpName];

/** The op `id` of that pause ran past its time (SPEC §9): the bridge interrupts the thread running it. */
export interface InterruptMessage {
  type: "interrupt";
  pause: string;
  id: string;
}

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
export type ResultMessage = { type: "result"; id: string; pause?: string; ok: true; value: unknown } | { type: "result"; id: string; pause?: string; ok: false; error: ErrorInfo };

/** Messages the bridge sends. */
export type BridgeMessage =
  | HelloMessage
  | ResultMessage
  | PlanRequest
  | PauseMessage
  | PauseEndMessage
  | BlocksAheadMessage
  | ChildrenRequest
  | MailRequest
  | ExitMessage
  | FatalMessage;

/** Messages the host sends. */
export type HostMessage = InitMessage | CompileRequest | CheckpointsRequest | RunRequest | OpMessage | InterruptMessage | ResultMessage;

/** Value of a successful answer, per host request. `run` has none: the program runs and ends with `exit`. */
export interface RequestValues {
  compile: CompileVerdict[];
  /** null: the answer to the request that sends the parts ahead. */
  checkpoints: CheckpointInfo[] | null;
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
  blocks_ahead: [],
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
