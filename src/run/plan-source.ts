// Plans a program whose source CPython cannot compile: the frontend finds its AI blocks with the
// bridge's interpreter as the compile oracle (one process: the one that will run the program).
// Loaded only when a source does not compile, so tree-sitter never costs a plain run anything.

import { analyzeSource, type Plan } from "../frontend/index.js";
import type { CompileOracle } from "../frontend/oracle.js";
import type { BridgeProcess } from "../recovery/bridge/bridge-process.js";

export type Planned = { kind: "plan"; plan: Plan } | { kind: "diagnostics"; message: string };

export function bridgeOracle(bridge: BridgeProcess): CompileOracle {
  return {
    async check(items) {
      const result = await bridge.request({ type: "compile", items });
      if (!result.ok) throw new Error(`the compile oracle failed: ${result.error.message}`);
      return result.value as Awaited<ReturnType<CompileOracle["check"]>>;
    },
  };
}

export async function planProgram(
  bridge: BridgeProcess,
  source: { source: string; filename: string; shownAs: string },
  options: { checkpoints?: boolean; entryModule?: boolean } = {},
): Promise<Planned> {
  const plan = await analyzeSource({
    source: source.source,
    filename: source.filename,
    displayName: displayName(source.filename),
    oracle: bridgeOracle(bridge),
    entryModule: options.entryModule ?? true,
    checkpoints: options.checkpoints ?? false,
  });
  if (plan.diagnostics.length > 0) {
    return { kind: "diagnostics", message: formatDiagnostics(source.shownAs, plan) };
  }
  return { kind: "plan", plan };
}

export function displayName(filename: string): string {
  return filename.startsWith("<") ? filename : filename.split("/").pop() ?? filename;
}

/** `file:line: message`, one per line (the first line gets the CLI's `aiython: ` prefix). */
export function formatDiagnostics(shownAs: string, plan: Plan): string {
  return plan.diagnostics.map((d) => `${shownAs}:${d.line}: ${d.message}`).join("\naiython: ");
}
