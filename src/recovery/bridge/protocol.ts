// Mirror of docs/protocol.md for the host: version, limits and the message union. The bridge's
// mirror is bridge-py/aiython_bridge/protocol.py; keep all three in step.

export const PROTOCOL_VERSION = 1;
export const MAX_FRAME = 64 * 1024 * 1024;
export const MIN_PYTHON: readonly [number, number] = [3, 11];

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
  | { kind: "stdin" };

export interface ErrorInfo {
  type: string;
  message: string;
  [extra: string]: unknown;
}

/** Messages the bridge sends. */
export type BridgeMessage =
  | { type: "hello"; protocol: number; pid: number; python: PythonInfo }
  | { type: "result"; id: string; pause?: string; ok: true; value: unknown }
  | { type: "result"; id: string; pause?: string; ok: false; error: ErrorInfo }
  | { type: "plan"; id: string; path: string; source: string; module: string }
  | { type: "pause"; pause: string; mode: "syntax" | "recovery"; request: Record<string, unknown> }
  | { type: "pause_end"; pause: string }
  | { type: "exit"; status: number; interrupted: boolean }
  | { type: "fatal"; message: string; traceback?: string };

/** Messages the host sends. */
export type HostMessage =
  | { type: "init"; protocol: number }
  | { type: "compile"; id: string; items: { source: string; filename: string }[] }
  | { type: "run"; id: string; target: RunTarget; argv: string[]; orig_argv: string[]; plan?: unknown; options: RunOptions }
  | { type: "op"; pause: string; id: string; op: string; args: Record<string, unknown> }
  | { type: "result"; id: string; ok: true; value: unknown }
  | { type: "result"; id: string; ok: false; error: ErrorInfo };

export interface RunOptions {
  /** A model is configured: blocks pause instead of raising "no model configured". */
  model_configured: boolean;
  /** `-i`: enter the interactive console after the program. */
  inspect: boolean;
  /** Folder of aiython.toml (or the script's folder): what counts as project code. */
  project_root: string;
  /** Include small primitive values of related objects in requests (`context_values`, SPEC §5.1). */
  context_values: boolean;
  /** Ask the host for a plan even when the source compiles (a model is configured: checkpoints). */
  plan_always: boolean;
}

const BRIDGE_TYPES = new Set(["hello", "result", "plan", "pause", "pause_end", "exit", "fatal"]);

export function isBridgeMessage(value: unknown): value is BridgeMessage {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) &&
    BRIDGE_TYPES.has((value as { type?: unknown }).type as string)
  );
}
