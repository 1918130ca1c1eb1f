// aiython's own options (SPEC §2), parsed with commander. Loaded only when the command line has
// options: `aiython script.py` never pays for commander (start-up budget, SPEC §12).

import { Command, CommanderError } from "commander";
import { CONFIG_BOUNDS } from "../defaults.js";
import { UsageError } from "../errors.js";

const MEMORY_LIMIT_MIN_MB = CONFIG_BOUNDS.memoryLimitMb.min;
import { VERSION } from "../version.js";
import { writeStdout } from "./stdout.js";

export interface CliOptions {
  config?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  python?: string;
  stats?: string | boolean;
  trace?: string;
  replay?: string | boolean;
  batch?: string | boolean;
  journal?: boolean;
  budgetCalls?: string;
  budgetTokens?: string;
  budgetCost?: string;
  explain?: boolean;
  json?: boolean;
  approve?: boolean;
  timeLimit?: number;
  memoryLimit?: number;
}

const PYTHON_OPTIONS_HELP = `
Python's own options (see python3 --help) go to the interpreter as with python3, and may be
mixed with the options above: -b, -bb, -B, -d, -E, -i (the console after the program), -I, -O,
-OO, -P, -q, -R, -s, -S, -u, -v, -W ARG, -x, -X OPT, --check-hash-based-pycs MODE.
-V prints the Python version (--version prints aiython's); --help-env, --help-xoptions and
--help-all print Python's help.`;

function buildCommand(): Command {
  return (
    new Command("aiython")
      .usage(
        "[options] SCRIPT [ARGS...]\n       aiython [options] -m MODULE [ARGS...]\n       aiython [options] -c CODE [ARGS...]\n       aiython [options] - [ARGS...]\n       aiython --explain [--json] PATH\n       aiython setup [--provider NAME] [--model ID] [--base-url URL] [--set-key] [--check] ...\n       aiython config show\n       aiython runs list | runs show ID\n       aiython resume [RUN_ID] [--force]\n       aiython recheck [RUN_ID...] [--last N]\n       aiython eval PROGRAM|FOLDER [--repeat N] [--json] [--replay]\n       aiython jobs list | jobs resume ID",
      )
      .description("Run a Python program on your own CPython; lines CPython cannot parse become model calls against the live frame.")
      .option("--config <file>", "use this aiython.toml instead of searching for one")
      .option("--profile <name>", "configuration profile to use")
      .option("--force-profile <name>", "profile that overrides every directive")
      .option("--model <id>", "model id, e.g. openai/gpt-4.1-mini")
      .option("--python <path>", "Python interpreter (default: AIYTHON_PYTHON, $VIRTUAL_ENV/bin/python, python3)")
      .option("--stats [format]", "print per-invocation statistics at exit (--stats=json for one JSON line)")
      .option("--trace <file>", "write model requests, tool calls and outcomes as JSON lines")
      .option("--replay [mode]", "answer model requests from the journal, offline (=RUN_ID: from that run; ,fill: call and record what it lacks)")
      .option(
        "--batch [mode]",
        "send model requests through the route's Batch API at its batch price (=fallback-live: failed lines live; =dir:PATH: write them for vllm run-batch, exit 76)",
      )
      .option("--no-journal", "do not record this run in .aiython/aiython.sqlite")
      .option("--budget-calls <n>", "send at most N model requests in this run (retries included)")
      .option("--budget-tokens <n>", "use at most N tokens in this run")
      .option("--budget-cost <usd>", "spend at most USD on model requests in this run (needs price in aiython.toml)")
      .option("--approve", "ask on the terminal before each model tool call that changes the program's state")
      .option("--time-limit <seconds>", "end the run after SECONDS (time waiting for the model not counted); exit 124", positiveNumber("--time-limit"))
      .option("--memory-limit <mb>", "cap the program's address space at MB megabytes (RLIMIT_AS): past it, MemoryError", positiveInteger("--memory-limit"))
      .option("--explain", "show AI blocks and checkpoints of PATH; runs nothing")
      .option("--json", "with --explain: print JSON")
      .version(VERSION, "--version", "print the version")
      .helpOption("-h, --help", "show this help")
      .addHelpText("after", PYTHON_OPTIONS_HELP)
      .exitOverride()
      // --stats, --replay and --batch never take the next argument (split-argv.ts): their values follow `=`.
      .configureHelp({ optionTerm: (option) => OPTION_TERMS[option.long ?? ""] ?? option.flags })
      // Help and version go through the EPIPE guard: `aiython --help | head -3` ends quietly.
      .configureOutput({ writeOut: (text) => void writeStdout(text), writeErr: () => undefined, outputError: () => undefined })
  );
}

/** How help writes the options whose value is attached with `=`. */
const OPTION_TERMS: Record<string, string> = { "--stats": "--stats[=json]", "--replay": "--replay[=RUN_ID][,fill]", "--batch": "--batch[=fallback-live|dir:PATH]" };

function positiveNumber(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} needs a positive number of seconds, got ${JSON.stringify(value)}`);
    return n;
  };
}

function positiveInteger(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || n < MEMORY_LIMIT_MIN_MB) {
      throw new UsageError(`${flag} needs a whole number of megabytes, at least ${MEMORY_LIMIT_MIN_MB}, got ${JSON.stringify(value)}`);
    }
    return n;
  };
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
