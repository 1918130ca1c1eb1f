// aiython's own options (SPEC §2), parsed with commander. Loaded only when the command line has
// options: `aiython script.py` never pays for commander (start-up budget, SPEC §12).

import { Command, CommanderError } from "commander";
import { UsageError } from "../errors.js";
import { VERSION } from "../version.js";

export interface CliOptions {
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
    .usage("[options] SCRIPT [ARGS...]\n       aiython [options] -m MODULE [ARGS...]\n       aiython [options] -c CODE [ARGS...]\n       aiython [options] - [ARGS...]\n       aiython --explain [--json] PATH\n       aiython setup [--provider NAME] [--model ID] [--base-url URL] [--set-key] [--check] ...\n       aiython config show\n       aiython runs list | runs show ID")
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

/** Parsed options, or null when commander already answered (--help, --version). */
export function parseOptions(optionArgs: string[]): { options: CliOptions; extra: string[] } | null {
  const command = buildCommand();
  try {
    command.parse(optionArgs, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return null;
      throw new UsageError(`${error.message.replace(/^error: /, "")} (see aiython --help)`);
    }
    throw error;
  }
  return { options: command.opts<CliOptions>(), extra: command.args };
}
