// Starting the interpreter that runs the bridge (docs/protocol.md: the program inherits fds 0–2,
// fd 3 is the control channel). On its own, importing only Node's
// built-ins, so that bin/aiython's first file can start the interpreter before anything of the CLI
// is read (src/cli/early-loader.ts); BridgeProcess adopts the process it returns.

import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** CPython's own options from the command line (`-i`, `-u`, `-X dev`…), before the boot script. */
  interpreterArgs?: readonly string[];
  /** "ignore" for helper processes that never run a program (the oracle behind --explain). */
  stdin?: "inherit" | "ignore";
  /** "ignore": the program's output goes nowhere (`aiython recheck` runs recorded programs with their output captured, SPEC §11.3). */
  output?: "inherit" | "ignore";
}

export function spawnInterpreter(command: string, bridgeDir: string, options: SpawnOptions = {}): ChildProcess {
  // The interpreter runs the boot script as its main script (its header says why that file).
  // CPython's own options go to the interpreter itself, so sys.flags, sys.warnoptions,
  // sys._xoptions, the console after the program under -i (and SystemExit there) are python3's.
  const boot = path.join(bridgeDir, "aiython_bridge", "start", "importlib_bootstrap.py");
  return spawn(command, [...(options.interpreterArgs ?? []), boot], {
    stdio: [options.stdin ?? "inherit", options.output ?? "inherit", options.output ?? "inherit", "pipe"],
    env: options.env ?? process.env,
  });
}
