// Splits the command line where the program begins (SPEC §2): options come before the program,
// and everything after SCRIPT / `-m MODULE` / `-c CODE` / `-` belongs to it, exactly as python3
// splits its own command line. Commander then parses only aiython's part.

import { UsageError } from "../errors.js";
import type { ProgramSpec } from "../run/target.js";

/** Options that take a value as the next argument (`--stats` never does: SPEC §2). */
const VALUE_OPTIONS = new Set(["--config", "--profile", "--force-profile", "--model", "--python", "--trace", "--time-limit", "--memory-limit"]);
export const SUBCOMMANDS = new Set(["setup", "config", "runs", "jobs"]);

export interface SplitArgs {
  optionArgs: string[];
  program: ProgramSpec | null;
  programArgs: string[];
  subcommand: { name: string; args: string[] } | null;
}

export function splitArgv(argv: readonly string[]): SplitArgs {
  const optionArgs: string[] = [];
  const done = (program: ProgramSpec, rest: readonly string[]): SplitArgs => ({
    optionArgs, program, programArgs: [...rest], subcommand: null,
  });
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      if (i + 1 >= argv.length) throw new UsageError("'--' must be followed by a script to run");
      return done({ kind: "script", path: argv[i + 1] }, argv.slice(i + 2));
    }
    if (arg === "-") return done({ kind: "stdin" }, argv.slice(i + 1));
    if (arg === "-c" || arg === "-m") {
      if (i + 1 >= argv.length) {
        throw new UsageError(arg === "-c" ? "-c needs the code to run: aiython -c 'print(1)'" : "-m needs a module name: aiython -m package.module");
      }
      const value = argv[i + 1];
      return done(arg === "-c" ? { kind: "code", code: value } : { kind: "module", name: value }, argv.slice(i + 2));
    }
    if (/^-[cm]./.test(arg)) {
      const value = arg.slice(2);
      return done(arg[1] === "c" ? { kind: "code", code: value } : { kind: "module", name: value }, argv.slice(i + 1));
    }
    if (arg.startsWith("-") && arg.length > 1) {
      optionArgs.push(arg);
      if (VALUE_OPTIONS.has(arg)) {
        if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value (see aiython --help)`);
        optionArgs.push(argv[++i]);
      }
      continue;
    }
    if (SUBCOMMANDS.has(arg)) {
      return { optionArgs, program: null, programArgs: [], subcommand: { name: arg, args: argv.slice(i + 1) } };
    }
    return done({ kind: "script", path: arg }, argv.slice(i + 1));
  }
  return { optionArgs, program: null, programArgs: [], subcommand: null };
}

