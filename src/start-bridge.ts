// Starts the interpreter for a run. The CLI calls this before it loads anything else, so that
// Python's own start-up overlaps with loading the rest of aiython (SPEC §12 start-up budget).

import path from "node:path";
import { fileURLToPath } from "node:url";
import { BridgeProcess } from "./recovery/bridge-process.js";
import { chooseInterpreter } from "./recovery/interpreter.js";

/** bridge-py/ sits next to both src/ (development) and dist/ (the built CLI). */
export const BRIDGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "bridge-py");

export function startBridge(python: string | undefined, inspect: boolean, env: NodeJS.ProcessEnv): BridgeProcess {
  return new BridgeProcess(chooseInterpreter(python, env), BRIDGE_DIR, { env, inspect });
}
