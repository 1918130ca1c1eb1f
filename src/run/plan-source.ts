// Plans a source for the bridge (SPEC §4.1): the frontend finds its AI blocks, with the bridge's
// interpreter as the compile oracle (one process: the one that will run the program), and the
// bridge checkpoints the rewritten program itself (SPEC §4.2). Loaded at the first `plan`
// request, so tree-sitter never costs a run that has none.

import { CAPABILITY_NAMES } from "../capabilities/names.js";
import { analyzeSource, type CompileOracle, type CompileVerdict, type Plan } from "../frontend/index.js";
import type { RequestResult } from "../bridge/bridge-process.js";
import type { CompileRequest, HostMessage, PlanRequest } from "../bridge/protocol.js";

export type Planned = { kind: "plan"; plan: Plan } | { kind: "diagnostics"; message: string };

/** A process of the run that asked for a plan: the first interpreter or a child (SPEC §8). */
export interface PlanLink {
  send(message: HostMessage): void;
  request(message: Omit<CompileRequest, "id">): Promise<RequestResult<CompileVerdict[]>>;
}

export function bridgeOracle(bridge: PlanLink): CompileOracle {
  return {
    async check(items) {
      const result = await bridge.request({ type: "compile", items });
      if (!result.ok) throw new Error(`the compile oracle failed: ${result.error.message}`);
      return result.value;
    },
  };
}

/** The plan the bridge asked for; `shownAs` names the file in diagnostics. */
export async function planRequested(bridge: PlanLink, request: PlanRequest, options: { shownAs: string }): Promise<Planned> {
  const plan = await analyzeSource({
    source: request.source,
    filename: request.path,
    displayName: displayName(request.path),
    oracle: bridgeOracle(bridge),
    capabilityNames: CAPABILITY_NAMES,
  });
  if (plan.diagnostics.length > 0) return { kind: "diagnostics", message: formatDiagnostics(options.shownAs, plan) };
  return { kind: "plan", plan };
}

export function displayName(filename: string): string {
  return filename.startsWith("<") ? filename : (filename.split("/").pop() ?? filename);
}

/** `file:line: message`, one per line (the first line gets the CLI's `aiython: ` prefix). */
export function formatDiagnostics(shownAs: string, plan: Plan): string {
  return plan.diagnostics.map((d) => `${shownAs}:${d.line}: ${d.message}`).join("\naiython: ");
}
