// Starting the interpreter as early as possible (SPEC §12 start-up budget): for a plain program
// run, Python's own start-up (~50 ms of site imports) should overlap with loading aiython itself.
// bin/aiython runs dist/early.cjs (CommonJS: no ES module loader to initialise first), whose
// dist/early.js calls earlyStart and hands the started process to dist/cli.js; cli.ts falls back
// to calling it itself when started another way.

import { splitArgv, type SplitArgs } from "./split-argv.js";
import { BridgeProcess } from "../recovery/bridge/bridge-process.js";
import { chooseInterpreter } from "../recovery/bridge/interpreter.js";

export interface EarlyHandoff {
  argv: string[];
  bridge: BridgeProcess | undefined;
  /** The signals aiython inherited as ignored (inherited-signals.ts: readable only once). */
  ignoredSignals: number[];
}

const HANDOFF = "__aiythonEarlyStart";

/** The interpreter for a plain program run, or undefined when the command line is anything else. */
export function earlyStart(argv: readonly string[], bridgeDir: string, ignoredSignals: readonly number[]): BridgeProcess | undefined {
  let split: SplitArgs;
  try {
    split = splitArgv(argv);
  } catch {
    return undefined; // cli.ts reports the mistake
  }
  if (split.subcommand || split.interpreter.query) return undefined;
  if (split.optionArgs.some((a) => ["--explain", "-h", "--help", "--version"].includes(a))) return undefined;
  const python = peekValue(split.optionArgs, "--python");
  return new BridgeProcess(chooseInterpreter(python, process.env), bridgeDir, {
    env: process.env, interpreterArgs: split.interpreter.args, ignoredSignals,
  });
}

function peekValue(optionArgs: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  optionArgs.forEach((arg, i) => {
    if (arg === name) value = optionArgs[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
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
