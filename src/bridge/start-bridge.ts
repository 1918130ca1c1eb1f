// Starts the interpreter for a run. The CLI calls this before it loads anything else, so that
// Python's own start-up overlaps with loading the rest of aiython (SPEC §12 start-up budget).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BridgeProcess } from "./bridge-process.js";
import { chooseInterpreter } from "./interpreter.js";

let found: string | undefined;

/** bridge-py/ sits at the package root, above both src/ (development) and dist/ (the built CLI).
 * Looked for on first use: a run that bin/aiython started early never needs it (its file URL and
 * the folder walk are start-up time). */
export function bridgeDir(): string {
  found ??= findBridgeDir(path.dirname(fileURLToPath(import.meta.url)));
  return found;
}

function findBridgeDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "bridge-py");
    if (fs.existsSync(path.join(candidate, "aiython_bridge"))) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(from, "..", "bridge-py");
  }
}

export function startBridge(
  python: string | undefined,
  env: NodeJS.ProcessEnv,
  options: { interpreterArgs: readonly string[]; ignoredSignals: readonly number[]; stdin?: "inherit" | "ignore"; output?: "inherit" | "ignore" },
): BridgeProcess {
  return new BridgeProcess(chooseInterpreter(python, env), bridgeDir(), { env, ...options });
}
