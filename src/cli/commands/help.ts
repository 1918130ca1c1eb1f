// `--help` / `-h` after a sub-command that takes no commander options of its own (`aiython runs
// --help`, `jobs --help`, `config --help`): its usage and what it does on stdout, exit 0. They
// were refused as unknown commands. `setup --help` is commander's (commands/setup.ts).

import type { RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";

const HELP: Record<string, string> = {
  runs: `Usage: aiython runs list [--limit N] [--json]
       aiython runs show ID [--json]

Runs recorded in this project's journal (.aiython/aiython.sqlite next to the nearest
aiython.toml): list shows the recent ones, show one run's AI invocations and model exchanges.`,
  jobs: `Usage: aiython jobs list [--json]
       aiython jobs resume ID

Long capability jobs (video) that outlive the run that started them: list them, or wait for
one to finish and save its result.`,
  eval: `Usage: aiython eval PROGRAM|FOLDER [--repeat N] [--json] [--replay]

Runs a program, or each program of a folder (as its eval.toml lists them, with their arguments
and expected output or check file), N times against the configured model, each run journaled,
and reports per program (exit statuses, passes, pass^k, tokens, cost, time) and per block
(answers, stable or flaky). Exit 0 when every run passed. --replay reproduces the last recorded
report offline. aiython's --profile, --config, --model, --python, --budget-* and --time-limit
apply to every run; at most max_concurrency runs go at once.`,
  config: `Usage: aiython config show

The configuration aiython resolves here (aiython.toml, profiles, routes), as JSON, without
secrets. To write aiython.toml: aiython setup.`,
};

/** The sub-command's help when `args` asks for it; null otherwise. */
export async function subcommandHelp(name: string, args: readonly string[]): Promise<RunOutcome | null> {
  const text = HELP[name];
  if (text === undefined || !args.some((arg) => arg === "--help" || arg === "-h")) return null;
  await writeStdout(`${text}\n`);
  return { kind: "status", status: 0 };
}
