// What a run and a pause carry (docs/protocol.md's "Payloads"): the interpreter's description,
// the run's target and options, the error of a failed request, the request content of a pause
// (SPEC §5.1) with the descriptors and source windows in it, and the checkpoints `--explain` asks
// for. protocol.ts re-exports all of it.

import type { InvocationMode } from "../invocation-record.js";

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
  /** `unnamed`: no `-` on the command line (`cmd | aiython`), so sys.argv[0] is "" as under python3. */
  | { kind: "stdin"; unnamed?: true }
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
  /** `type_contracts = "all"` (SPEC §6): annotated project code is checked too; absent: "ai". */
  type_contracts?: "all";
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
  /** The line of the checkpoint's frame the failure passed (in a compound statement's body, the body's line). */
  line: number;
  /** For a compound statement: what `complete` skips, in words (SPEC §4.2). */
  complete_skips?: string;
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
  /** The program may write while this pause waits (other threads alive, or a coroutine's event loop): no spinner. */
  concurrent?: boolean;
}

/** A checkpoint the bridge selects (SPEC §4.2), as it answers `checkpoints`: what `--explain` shows. */
export interface CheckpointInfo {
  /** `<file base name>:c<N>` */
  id: string;
  /** The statement's span in the user's source: lines 1-based, columns 0-based in code points. */
  span: { line: number; column: number; end_line: number; end_column: number };
  /** Its text, verbatim. */
  statement: string;
  /** The one name it assigns, or null. */
  target: string | null;
  /** A simple statement: `retry` may run it again (a compound one may only be completed or propagate). */
  retry_allowed: boolean;
}
