// CPython itself, with no bridge, for its own answers about itself (`-V`, `--help-env`…; the
// console of `aiython` on a terminal is a run of the bridge: bridge-py/aiython_bridge/console/).
// It owns the terminal, so Ctrl-C reaches it from the terminal and the host ignores its own.
// CPython's own options from the command line come first, as with python3. Started with execa: this path is never on the
// start-up path of a program run, and execa's exit reporting (signal names, spawn errors) is
// what the CLI needs here.

import { execa } from "execa";
import { UsageError, type RunOutcome } from "../errors.js";
import { chooseInterpreter, describeChoice } from "./interpreter.js";

export async function runInterpreter(args: { python?: string; env: NodeJS.ProcessEnv; args: readonly string[] }): Promise<RunOutcome> {
  const choice = chooseInterpreter(args.python, args.env);
  const ignore = () => undefined;
  process.on("SIGINT", ignore);
  try {
    const result = await execa(choice.command, [...args.args], { stdio: "inherit", env: args.env, extendEnv: false, reject: false });
    if (result.failed && result.exitCode === undefined && result.signal === undefined) {
      throw new UsageError(`Python interpreter ${describeChoice(choice)} not found: install Python 3.11+ or choose one with --python PATH`);
    }
    return result.signal ? { kind: "signal", signal: result.signal as NodeJS.Signals } : { kind: "status", status: result.exitCode ?? 0 };
  } finally {
    process.off("SIGINT", ignore);
  }
}
