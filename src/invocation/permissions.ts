// Permissions (SPEC §7, §9) as the tool loop enforces them: checked on a whole batch before any
// of its calls runs, and a denied one ends the invocation with a message that names the
// permission, the profile, and the setting that would allow it. A call the profile does not
// allow is never sent to the frame; the tools it needs are not offered either (tools.ts).
//
// Which permission gates what: `execute_code` the `evaluate` and `execute` tools and `expression`
// outcomes (§5.2); `read_code` the code-reading tools (§9); `write_filesystem` every file write of
// code a tool runs, enforced by the bridge's source guard (its PermissionDenied tool errors end
// the invocation the same way). `network` gates the model call itself (run/invocation-runner.ts).

import type { ToolCall } from "../model-port.js";
import { EXECUTE_CODE_PERMISSION, READ_CODE_PERMISSION } from "../defaults.js";
import { isCodeTool } from "./code-tools.js";

/** Where a profile's permissions are set, for the message that says how to allow one. */
export interface ProfileRef {
  name: string;
  /** e.g. `permissions in aiython.toml` or `profiles.fast.permissions in aiython.toml`. */
  permissionsSetting: string;
}

export const DEFAULT_PROFILE_REF: ProfileRef = { name: "default", permissionsSetting: "permissions in aiython.toml" };

export interface Denial {
  permission: string;
  /** What the model tried, e.g. `called execute`. */
  attempt: string;
}

/** The permission a tool needs, or null. */
export function toolPermission(name: string): string | null {
  if (name === "evaluate" || name === "execute") return EXECUTE_CODE_PERMISSION;
  if (isCodeTool(name)) return READ_CODE_PERMISSION;
  return null;
}

/** The first call of the batch that needs a permission the profile does not grant, or null. */
export function deniedInBatch(calls: readonly ToolCall[], permissions: ReadonlySet<string>): Denial | null {
  for (const call of calls) {
    const name = call.function?.name;
    if (typeof name !== "string") continue;
    const needed = toolPermission(name);
    if (needed !== null && !permissions.has(needed)) return { permission: needed, attempt: `called ${name}` };
    if ((name === "finish" || name === "recover") && !permissions.has(EXECUTE_CODE_PERMISSION) && outcomeKind(call) === "expression") {
      return { permission: EXECUTE_CODE_PERMISSION, attempt: `ended with ${name} and an expression outcome` };
    }
  }
  return null;
}

function outcomeKind(call: ToolCall): unknown {
  try {
    return (JSON.parse(call.function.arguments) as { outcome?: { kind?: unknown } })?.outcome?.kind;
  } catch {
    return undefined;
  }
}

/** The reason the invocation ends with. */
export function denialReason(denial: Denial, profile: ProfileRef): string {
  return (
    `the model ${denial.attempt}, which needs the ${denial.permission} permission; profile "${profile.name}" does not grant it ` +
    `(to allow it, add "${denial.permission}" to ${profile.permissionsSetting})`
  );
}

/** A PermissionDenied tool error of the source guard ("writing x needs the write_filesystem permission"). */
export function guardDenial(tool: string, message: string): Denial {
  const permission = /needs the (\w+) permission/.exec(message)?.[1] ?? "write_filesystem";
  const action = message.replace(/ needs the \w+ permission.*$/, "");
  return { permission, attempt: `ran ${tool} code that tried ${action}` };
}
