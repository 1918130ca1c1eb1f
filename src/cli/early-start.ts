// Starting the interpreter as early as possible (SPEC §12 start-up budget): for a plain program
// run, Python's own start-up (~50 ms of site imports) should overlap with loading aiython itself.
// bin/aiython runs dist/early.cjs (CommonJS: no ES module loader to initialise first), which starts
// the interpreter before it reads anything else (early-spawn.ts); dist/early.js makes the
// BridgeProcess of it here and hands that to dist/cli.js. cli.ts falls back to calling earlyStart
// itself when started another way.

import { BridgeProcess } from "../bridge/bridge-process.js";
import { startInterpreter, type StartedInterpreter } from "./early-spawn.js";

export interface EarlyHandoff {
  argv: string[];
  bridge: BridgeProcess | undefined;
  /** The signals aiython inherited as ignored (inherited-signals.ts: readable only once). */
  ignoredSignals: number[];
}

const HANDOFF = "__aiythonEarlyStart";

/** The bridge for a plain program run, its interpreter started now, or undefined when the command line is anything else. */
export function earlyStart(argv: readonly string[], bridgeDir: string, ignoredSignals: readonly number[]): BridgeProcess | undefined {
  return adoptInterpreter(startInterpreter(argv, bridgeDir, process.env), bridgeDir, ignoredSignals);
}

/** The bridge around an interpreter already started (by dist/early.cjs), or undefined when none was. */
export function adoptInterpreter(started: StartedInterpreter | undefined, bridgeDir: string, ignoredSignals: readonly number[]): BridgeProcess | undefined {
  if (!started) return undefined;
  return new BridgeProcess(started.choice, bridgeDir, {
    env: process.env,
    interpreterArgs: started.interpreterArgs,
    ignoredSignals,
    child: started.child,
  });
}

export function handOff(handoff: EarlyHandoff): void {
  (globalThis as Record<string, unknown>)[HANDOFF] = handoff;
}

/** What dist/early.js found and started; its process only if it was started for exactly these arguments. */
export function takeHandoff(argv: readonly string[]): { bridge: BridgeProcess | undefined; ignoredSignals: number[] } | undefined {
  const handoff = (globalThis as Record<string, unknown>)[HANDOFF] as EarlyHandoff | undefined;
  delete (globalThis as Record<string, unknown>)[HANDOFF];
  if (!handoff) return undefined;
  if (handoff.argv.length !== argv.length || handoff.argv.some((a, i) => a !== argv[i])) {
    handoff.bridge?.kill("SIGKILL");
    return { bridge: undefined, ignoredSignals: handoff.ignoredSignals };
  }
  return { bridge: handoff.bridge, ignoredSignals: handoff.ignoredSignals };
}
