// Splits the command line where the program begins (SPEC §2), exactly as python3 splits its own:
// options come before the program, and everything after SCRIPT / `-m MODULE` / `-c CODE` / `-`
// belongs to it. Before the program, aiython's own options (long ones, parsed by commander; and
// `-h`) mix with CPython's (`python3 --help`), which are read as CPython's getopt reads them
// (Python/getopt.c): short flags cluster (`-uB`), `-W ARG` / `-X OPT` take the rest of their
// word or the next one (`-Werror`, `-W error`), `-c` / `-m` end the options the same way, and
// `--check-hash-based-pycs MODE` takes the next word. CPython's options go to the interpreter as
// written; CPython itself refuses the ones it does not know, with its own message.

import { UsageError } from "../errors.js";
import type { InterpreterOptions, ProgramSpec } from "../run/target.js";

/** aiython's options that take a value as the next argument (`--stats`, `--replay` and `--batch` never do: SPEC §2). */
const VALUE_OPTIONS = new Set([
  "--config",
  "--profile",
  "--force-profile",
  "--model",
  "--python",
  "--trace",
  "--budget-calls",
  "--budget-tokens",
  "--budget-cost",
  "--time-limit",
  "--memory-limit",
]);
export const SUBCOMMANDS = new Set(["setup", "config", "runs", "jobs", "resume", "recheck", "eval"]);

/** CPython's flags that take no value (its getopt string is "bBc:dEhiIJm:OPqRsStuvVW:xX:?"). */
const PYTHON_FLAGS = new Set("bBdEiIOPqRsStuvVx");
/** CPython's long options: the first takes the next word; the others print help and exit. */
const PYTHON_LONG_VALUE = "--check-hash-based-pycs";
const PYTHON_LONG_QUERIES = new Set(["--help-env", "--help-xoptions", "--help-all"]);

export interface SplitArgs {
  /** The whole command line as given (after aiython's own name). */
  argv: readonly string[];
  /** aiython's own options, for commander. */
  optionArgs: string[];
  interpreter: InterpreterOptions;
  /** The words python3 would have been given after its own name (its sys.orig_argv[1:]). */
  origArgv: string[];
  program: ProgramSpec | null;
  programArgs: string[];
  subcommand: { name: string; args: string[] } | null;
}

export function splitArgv(argv: readonly string[]): SplitArgs {
  const optionArgs: string[] = [];
  const interpreter: InterpreterOptions = { args: [], inspect: false, skipFirstLine: false, query: false };
  const origArgv: string[] = [];
  const split = (program: ProgramSpec | null, rest: readonly string[], subcommand: SplitArgs["subcommand"] = null): SplitArgs => ({
    argv: [...argv],
    optionArgs,
    interpreter,
    origArgv,
    program,
    programArgs: [...rest],
    subcommand,
  });
  const done = (program: ProgramSpec, from: number, rest: readonly string[]): SplitArgs => {
    origArgv.push(...argv.slice(from));
    return split(program, rest);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      if (i + 1 >= argv.length) throw new UsageError("'--' must be followed by a script to run");
      return done({ kind: "script", path: argv[i + 1] }, i, argv.slice(i + 2));
    }
    if (arg === "-") return done({ kind: "stdin" }, i, argv.slice(i + 1));
    if (arg.startsWith("--")) {
      if (arg === PYTHON_LONG_VALUE || PYTHON_LONG_QUERIES.has(arg)) {
        const words = arg === PYTHON_LONG_VALUE ? argv.slice(i, i + 2) : [arg];
        interpreter.args.push(...words);
        origArgv.push(...words);
        interpreter.query ||= PYTHON_LONG_QUERIES.has(arg);
        i += words.length - 1;
        continue;
      }
      optionArgs.push(arg);
      if (VALUE_OPTIONS.has(arg)) {
        if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value (see aiython --help)`);
        optionArgs.push(argv[++i]);
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      const cluster = readCluster(argv, i, interpreter);
      if (cluster.help) optionArgs.push("-h");
      if (cluster.program) {
        if (cluster.flags.length > 1) interpreter.args.push(cluster.flags);
        return done(cluster.program, i, argv.slice(i + cluster.words));
      }
      if (!cluster.help) {
        interpreter.args.push(...argv.slice(i, i + cluster.words));
        origArgv.push(...argv.slice(i, i + cluster.words));
      }
      i += cluster.words - 1;
      continue;
    }
    if (SUBCOMMANDS.has(arg)) return split(null, [], { name: arg, args: argv.slice(i + 1) });
    return done({ kind: "script", path: arg }, i, argv.slice(i + 1));
  }
  return split(null, []);
}

interface Cluster {
  /** How many words of argv it used: 1, or 2 when its last option took the next word. */
  words: number;
  /** `-c CODE` / `-m MODULE` ended it: the program. */
  program?: ProgramSpec;
  /** The flags before `c` / `m`, with their dash (`-uB` of `-uBc CODE`). */
  flags: string;
  /** `-h` or `-?`: aiython's help. */
  help: boolean;
}

/** One word of short options, `argv[i]`, read letter by letter as CPython's getopt reads it. */
function readCluster(argv: readonly string[], i: number, interpreter: InterpreterOptions): Cluster {
  const word = argv[i];
  const valueAt = (j: number): { value: string; words: number } | null => {
    if (j + 1 < word.length) return { value: word.slice(j + 1), words: 1 };
    return i + 1 < argv.length ? { value: argv[i + 1], words: 2 } : null;
  };
  let help = false;
  for (let j = 1; j < word.length; j++) {
    const letter = word[j];
    if (letter === "c" || letter === "m") {
      const found = valueAt(j);
      if (!found) {
        throw new UsageError(letter === "c" ? "-c needs the code to run: aiython -c 'print(1)'" : "-m needs a module name: aiython -m package.module");
      }
      const program: ProgramSpec = letter === "c" ? { kind: "code", code: found.value } : { kind: "module", name: found.value };
      return { words: found.words, program, flags: word.slice(0, j), help };
    }
    if (letter === "W" || letter === "X") {
      const found = valueAt(j);
      if (!found) throw new UsageError(`-${letter} needs a value, as with python3 (e.g. ${letter === "W" ? "-W error" : "-X dev"})`);
      return { words: found.words, flags: word, help };
    }
    if (letter === "h" || letter === "?") help = true;
    else if (letter === "i") interpreter.inspect = true;
    else if (letter === "x") interpreter.skipFirstLine = true;
    else if (letter === "V") interpreter.query = true;
    else if (!PYTHON_FLAGS.has(letter)) break; // CPython refuses it with its own message (-J, -z…)
  }
  return { words: 1, flags: word, help };
}
