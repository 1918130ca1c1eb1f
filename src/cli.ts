// The command line (SPEC §2): splits aiython's options from the program, parses them with
// commander, dispatches, and is the only place that sets the exit status. User mistakes end
// with one `aiython: …` line on stderr; nothing else of aiython's ever goes to stdout.

import { Command, CommanderError } from "commander";
import { AiythonError, ExitStatus, UsageError } from "./errors.js";
import { splitArgv } from "./cli-args.js";
import { VERSION } from "./version.js";
import type { RunOutcome } from "./main.js";

interface CliOptions {
  config?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  python?: string;
  stats?: string | boolean;
  trace?: string;
  replay?: boolean;
  journal?: boolean;
  i?: boolean;
  explain?: boolean;
  json?: boolean;
}

function buildCommand(): Command {
  return new Command("aiython")
    .usage("[options] SCRIPT [ARGS...]\n       aiython [options] -m MODULE [ARGS...]\n       aiython [options] -c CODE [ARGS...]\n       aiython [options] - [ARGS...]\n       aiython --explain [--json] PATH\n       aiython config show")
    .description("Run a Python program on your own CPython; lines CPython cannot parse become model calls against the live frame.")
    .option("--config <file>", "use this aiython.toml instead of searching for one")
    .option("--profile <name>", "configuration profile to use")
    .option("--force-profile <name>", "profile that overrides every directive")
    .option("--model <id>", "model id, e.g. openai/gpt-4.1-mini")
    .option("--python <path>", "Python interpreter (default: AIYTHON_PYTHON, $VIRTUAL_ENV/bin/python, python3)")
    .option("--stats [format]", "print per-invocation statistics at exit (--stats=json for one JSON line)")
    .option("--trace <file>", "write model requests, tool calls and outcomes as JSON lines")
    .option("--replay", "answer model requests from the journal, offline")
    .option("--no-journal", "do not record this run in .aiython/aiython.sqlite")
    .option("-i", "enter the interactive console after the program")
    .option("--explain", "show AI blocks and checkpoints of PATH; runs nothing")
    .option("--json", "with --explain: print JSON")
    .version(VERSION, "--version", "print the version")
    .helpOption("-h, --help", "show this help")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, outputError: () => undefined });
}

async function main(argv: string[]): Promise<RunOutcome> {
  const split = splitArgv(argv);
  const command = buildCommand();
  let options: CliOptions;
  try {
    command.parse(split.optionArgs, { from: "user" });
    options = command.opts<CliOptions>();
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return { kind: "status", status: 0 }; // --help, --version
      throw new UsageError(`${error.message.replace(/^error: /, "")} (see aiython --help)`);
    }
    throw error;
  }
  if (command.args.length > 0) throw new UsageError(`unexpected argument '${command.args[0]}' (see aiython --help)`);
  if (options.profile && options.forceProfile) throw new UsageError("--profile and --force-profile cannot be used together");
  if (options.stats !== undefined && options.stats !== true && options.stats !== "json") {
    throw new UsageError(`--stats takes no value or =json, not '${options.stats}'`);
  }
  for (const [flag, set] of [["--stats", options.stats !== undefined], ["--trace", options.trace !== undefined], ["--replay", options.replay]] as const) {
    if (set) throw new UsageError(`${flag} is not available yet in this version`);
  }

  if (split.subcommand) {
    throw new UsageError(`'aiython ${split.subcommand.name}' is not available yet in this version`);
  }
  if (options.explain) {
    throw new UsageError("--explain is not available yet in this version");
  }
  if (split.program === null) {
    if (process.stdin.isTTY) {
      const { runConsole } = await import("./console.js");
      return runConsole({ python: options.python, env: process.env });
    }
    split.program = { kind: "stdin" };
  }
  const { runProgram } = await import("./main.js");
  return runProgram({
    program: split.program,
    programArgs: split.programArgs,
    python: options.python,
    inspect: Boolean(options.i),
    configFile: options.config,
    profile: options.profile,
    forceProfile: options.forceProfile,
    model: options.model,
    env: process.env,
  });
}

function finish(outcome: RunOutcome): void {
  if (outcome.message) process.stderr.write(`aiython: ${outcome.message}\n`);
  if (outcome.kind === "status") {
    process.exitCode = outcome.status;
    return;
  }
  // Die of the same signal, as CPython does after KeyboardInterrupt, so shells see it.
  if (outcome.signal !== "SIGPIPE") {
    process.removeAllListeners(outcome.signal);
    process.kill(process.pid, outcome.signal);
  }
  import("node:os").then((os) => {
    process.exitCode = 128 + (os.constants.signals[outcome.signal] ?? 0);
  });
}

process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

main(process.argv.slice(2)).then(finish, (error: unknown) => {
  if (error instanceof AiythonError) {
    process.stderr.write(`aiython: ${error.message}\n`);
    process.exitCode = error.exitStatus;
    return;
  }
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`aiython: internal error: ${detail}\n`);
  if (process.env.AIYTHON_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = ExitStatus.internal;
});
