// Which command lines run a program, and starting their interpreter (SPEC §12 start-up budget):
// bin/aiython's first file (early-loader.ts, bundled on its own) calls `startInterpreter` before it
// reads anything else of the CLI, so Python's own start-up overlaps with loading aiython; it hands
// what it started to dist/early.js in a global (`EARLY_START`), where BridgeProcess adopts the
// process (early-start.ts) in the same synchronous run, before any event of the process is
// emitted. Nothing here imports the CLI's chunks: only split-argv (with the error classes it
// throws, caught here), the interpreter choice and spawn-interpreter, over Node's built-ins.

import { chooseInterpreter, type InterpreterChoice } from "../bridge/interpreter.js";
import { spawnInterpreter } from "../bridge/spawn-interpreter.js";
import { splitArgv, type SplitArgs } from "./split-argv.js";

export const EARLY_START = "__aiythonEarlySpawn";

export interface StartedInterpreter {
  choice: InterpreterChoice;
  interpreterArgs: string[];
  child: ReturnType<typeof spawnInterpreter>;
}

/** What bin/aiython's first file did: for these arguments, with these inherited signals. */
export interface EarlySpawn {
  argv: string[];
  ignoredSignals: number[];
  started: StartedInterpreter | undefined;
}

/** The interpreter and CPython's options for a plain program run, or undefined for anything else. */
export function plainRun(argv: readonly string[], env: NodeJS.ProcessEnv): { choice: InterpreterChoice; interpreterArgs: string[] } | undefined {
  let split: SplitArgs;
  try {
    split = splitArgv(argv);
  } catch {
    return undefined; // cli.ts reports the mistake
  }
  if (split.subcommand || split.interpreter.query) return undefined;
  if (split.optionArgs.some((a) => ["--explain", "-h", "--help", "--version"].includes(a))) return undefined;
  return { choice: chooseInterpreter(peekValue(split.optionArgs, "--python"), env), interpreterArgs: [...split.interpreter.args] };
}

/** The interpreter of a plain program run, started; undefined for any other command line. */
export function startInterpreter(argv: readonly string[], bridgeDir: string, env: NodeJS.ProcessEnv): StartedInterpreter | undefined {
  const run = plainRun(argv, env);
  if (!run) return undefined;
  return { ...run, child: spawnInterpreter(run.choice.command, bridgeDir, { env, interpreterArgs: run.interpreterArgs }) };
}

/** What bin/aiython's first file started, taken once; undefined when aiython was started another way. */
export function takeEarlySpawn(): EarlySpawn | undefined {
  const global = globalThis as Record<string, unknown>;
  const early = global[EARLY_START] as EarlySpawn | undefined;
  delete global[EARLY_START];
  return early;
}

function peekValue(optionArgs: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  optionArgs.forEach((arg, i) => {
    if (arg === name) value = optionArgs[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}
