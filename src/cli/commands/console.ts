// `aiython` with no program on a terminal: CPython's own interactive console, started directly
// (lines typed there are compiled one at a time by CPython, so no AI block can occur in them).

import { spawn } from "node:child_process";
import { UsageError } from "../../errors.js";
import { chooseInterpreter, describeChoice } from "../../recovery/bridge/interpreter.js";
import type { RunOutcome } from "../../errors.js";

export function runConsole(args: { python?: string; env: NodeJS.ProcessEnv }): Promise<RunOutcome> {
  const choice = chooseInterpreter(args.python, args.env);
  return new Promise((resolve, reject) => {
    const child = spawn(choice.command, [], { stdio: "inherit", env: args.env });
    const ignore = () => undefined; // the console gets Ctrl-C from the terminal itself
    process.on("SIGINT", ignore);
    child.on("error", () => {
      process.off("SIGINT", ignore);
      reject(new UsageError(`Python interpreter ${describeChoice(choice)} not found: install Python 3.11+ or choose one with --python PATH`));
    });
    child.on("close", (code, signal) => {
      process.off("SIGINT", ignore);
      resolve(signal ? { kind: "signal", signal } : { kind: "status", status: code ?? 0 });
    });
  });
}
