// `aiython eval PROGRAM|FOLDER [--repeat N] [--json] [--replay]`: run a program (or each program
// of a folder, as its eval.toml says) N times against the configured model and report per program
// and per block (src/eval/). While the runs go, stderr shows how many are done (eval/progress.ts).
// The table and a one-line summary go to stdout, or the report as JSON with --json. Exit 0 when every run passed, 1 otherwise (a CI step fails on a flaky program).
// aiython's options for the runs (--profile, --config, --model, --python, budgets, --time-limit)
// come before `eval` or after it, and reach every run; at most max_concurrency runs go at once.

import { Command, CommanderError } from "commander";
import { loadConfig } from "../../config/index.js";
import { UsageError, type RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";
import type { CliOptions } from "../options.js";

const USAGE = "aiython eval PROGRAM|FOLDER [--repeat N] [--json] [--replay]";

interface EvalFlags {
  repeat: string;
  json?: boolean;
  replay?: boolean;
  profile?: string;
  config?: string;
  model?: string;
  python?: string;
  budgetCalls?: string;
  budgetTokens?: string;
  budgetCost?: string;
  timeLimit?: string;
}

export async function evalCommand(args: readonly string[], global: CliOptions, ctx: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunOutcome> {
  const { target, flags } = parse(args);
  const repeat = Number(flags.repeat);
  if (!/^\d+$/.test(flags.repeat) || repeat < 1 || repeat > 1000) throw new UsageError(`--repeat takes a whole number from 1 to 1000, not '${flags.repeat}': ${USAGE}`);
  const configFile = flags.config ?? global.config;
  const profile = flags.profile ?? global.profile;
  const runOptions = optionWords({ ...flags, config: configFile, profile, model: flags.model ?? global.model, python: flags.python ?? global.python });
  const config = await loadConfig({ scriptPath: null, cwd: ctx.cwd, configFile, profile, env: ctx.env });
  const concurrency = config.profiles.get(config.forcedProfile ?? config.defaultProfile)?.maxConcurrency ?? 8;
  const { runEval } = await import("../../eval/run-eval.js");
  const { EvalProgress } = await import("../../eval/progress.js");
  const progress = new EvalProgress();
  const report = await runEval({ target, repeat, replay: flags.replay ?? false, runOptions, concurrency, cwd: ctx.cwd, env: ctx.env, configFile, progress });
  const { reportJson, reportText } = await import("../../eval/render.js");
  await writeStdout(flags.json ? reportJson(report) : reportText(report));
  return { kind: "status", status: report.summary.passed === report.summary.runs ? 0 : 1 };
}

/** The options every run is given, as aiython's own command line words. */
function optionWords(flags: EvalFlags): string[] {
  const words: string[] = [];
  const pairs: [string, string | undefined][] = [
    ["--config", flags.config],
    ["--profile", flags.profile],
    ["--model", flags.model],
    ["--python", flags.python],
    ["--budget-calls", flags.budgetCalls],
    ["--budget-tokens", flags.budgetTokens],
    ["--budget-cost", flags.budgetCost],
    ["--time-limit", flags.timeLimit],
  ];
  for (const [option, value] of pairs) if (value !== undefined) words.push(option, value);
  return words;
}

function parse(args: readonly string[]): { target: string; flags: EvalFlags } {
  const command = new Command("aiython eval")
    .argument("<target>")
    .option("--repeat <n>", "runs of each program", "1")
    .option("--json")
    .option("--replay")
    .option("--profile <name>")
    .option("--config <file>")
    .option("--model <id>")
    .option("--python <path>")
    .option("--budget-calls <n>")
    .option("--budget-tokens <n>")
    .option("--budget-cost <usd>")
    .option("--time-limit <seconds>")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined, outputError: () => undefined });
  try {
    command.parse([...args], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) throw new UsageError(`${error.message.replace(/^error: /, "")}: ${USAGE}`);
    throw error;
  }
  return { target: command.args[0], flags: command.opts<EvalFlags>() };
}
