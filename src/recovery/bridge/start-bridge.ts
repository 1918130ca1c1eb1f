// Starts the interpreter for a run. The CLI calls this before it loads anything else, so that
// Python's own start-up overlaps with loading the rest of aiython (SPEC §12 start-up budget).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BridgeProcess } from "./bridge-process.js";
import { chooseInterpreter } from "./interpreter.js";

/** bridge-py/ sits at the package root, above both src/ (development) and dist/ (the built CLI). */
export const BRIDGE_DIR = findBridgeDir(path.dirname(fileURLToPath(import.meta.url)));

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
  options: { interpreterArgs: readonly string[]; ignoredSignals: readonly number[] },
): BridgeProcess {
  return new BridgeProcess(chooseInterpreter(python, env), BRIDGE_DIR, { env, ...options });
}
