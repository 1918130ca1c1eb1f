// The command line (SPEC §2): splits aiython's options from the program, parses them with
// commander, dispatches to one of commands/, and is the only place that sets the exit status.
// User mistakes end with one `aiython: …` line on stderr; nothing else of aiython's ever goes
// to stdout.

import { ExitStatus, InternalError, isAiythonError, UsageError, type RunOutcome } from "../errors.js";
import type { BridgeProcess } from "../bridge/bridge-process.js";
import { bridgeDir } from "../bridge/start-bridge.js";
import { earlyStart, takeHandoff } from "./early-start.js";
import { outliveSignals, takeInheritedSignals } from "./inherited-signals.js";
import type { CliOptions } from "./options.js";
import { splitArgv, type SplitArgs } from "./split-argv.js";

async function main(argv: string[]): Promise<RunOutcome> {
  const split = splitArgv(argv);
  const handoff = takeHandoff(argv);
  const ignoredSignals = handoff?.ignoredSignals ?? takeInheritedSignals(process.env);
  outliveSignals(ignoredSignals);
  const early = handoff ? handoff.bridge : earlyStart(argv, bridgeDir(), ignoredSignals);
  try {
    return await dispatch(split, early, ignoredSignals);
  } catch (error) {
    early?.kill("SIGKILL");
    throw error;
  }
}

async function dispatch(split: SplitArgs, early: BridgeProcess | undefined, ignoredSignals: number[]): Promise<RunOutcome> {
  const options = await parsedOptions(split);
  if (options === null) return { kind: "status", status: 0 }; // --help, --version
  if (split.subcommand) return subcommand(split.subcommand, options, ignoredSignals);
  if (options.explain) {
    const { explainCommand } = await import("./commands/explain.js");
    return explainCommand(split, options);
  }
  if (options.json) throw new UsageError("--json goes with --explain: aiython --explain --json PATH");
  if (split.interpreter.query) {
    // -V, --help-env…: CPython's own answer about itself (aiython's is --version, --help).
    const { runInterpreter } = await import("../run/console.js");
    return runInterpreter({ python: options.python, env: process.env, args: split.interpreter.args });
  }
  const { runCommand } = await import("./commands/run.js");
  return runCommand(split, options, early, ignoredSignals);
}

async function subcommand(command: { name: string; args: string[] }, options: CliOptions, ignoredSignals: number[]): Promise<RunOutcome> {
  if (command.name !== "setup") {
    const { subcommandHelp } = await import("./commands/help.js");
    const help = await subcommandHelp(command.name, command.args);
    if (help) return help;
  }
  switch (command.name) {
    case "config": {
      const { configCommand } = await import("./commands/config.js");
      return configCommand(command.args, { configFile: options.config, profile: options.profile, forceProfile: options.forceProfile, model: options.model });
    }
    case "setup": {
      const { setupCommand } = await import("./commands/setup.js");
      return setupCommand(command.args, { configFile: options.config, profile: options.profile });
    }
    case "runs": {
      const { runRunsCommand } = await import("./commands/runs.js");
      return runRunsCommand(command.args, { cwd: process.cwd(), env: process.env, configFile: options.config });
    }
    case "resume": {
      const { resumeCommand } = await import("./commands/resume.js");
      const warn = (line: string) => process.stderr.write(`aiython: ${line}\n`);
      return resumeCommand(command.args, { cwd: process.cwd(), env: process.env, configFile: options.config, ignoredSignals, warn });
    }
    case "recheck": {
      const { recheckCommand } = await import("./commands/recheck.js");
      return recheckCommand(command.args, { cwd: process.cwd(), env: process.env, configFile: options.config, ignoredSignals });
    }
    case "eval": {
      const { evalCommand } = await import("./commands/eval.js");
      return evalCommand(command.args, options, { cwd: process.cwd(), env: process.env });
    }
    case "jobs": {
      const { runJobsCommand } = await import("./commands/jobs.js");
      return runJobsCommand(command.args, { cwd: process.cwd(), env: process.env, configFile: options.config, profile: options.profile });
    }
    default:
      throw new UsageError(`'aiython ${command.name}' is not available yet in this version`);
  }
}

/** aiython's own options, checked; null when commander already answered (--help, --version). */
async function parsedOptions(split: SplitArgs): Promise<CliOptions | null> {
  if (split.optionArgs.length === 0) return {};
  const { parseOptions } = await import("./options.js");
  const parsed = parseOptions(split.optionArgs);
  if (parsed === null) return null;
  if (parsed.extra.length > 0) throw new UsageError(`unexpected argument '${parsed.extra[0]}' (see aiython --help)`);
  const options = parsed.options;
  if (options.profile && options.forceProfile) throw new UsageError("--profile and --force-profile cannot be used together");
  if (options.stats !== undefined && options.stats !== true && options.stats !== "json") {
    throw new UsageError(`--stats takes no value or =json, not '${options.stats}'`);
  }
  if (options.replay !== undefined) {
    const { replayChoice } = await import("./replay-option.js");
    replayChoice(options.replay); // a bad value is a usage error before anything runs
  }
  if (options.replay && options.journal === false) throw new UsageError("--replay answers from the journal; drop --no-journal");
  if (options.budgetCalls !== undefined || options.budgetTokens !== undefined || options.budgetCost !== undefined) {
    const { budgetOf } = await import("./budget-options.js");
    budgetOf(options); // a bad value is a usage error before anything runs
  }
  return options;
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

function failed(error: unknown): void {
  if (isAiythonError(error)) {
    process.stderr.write(`aiython: ${error.message}\n`);
    process.exitCode = error.exitStatus;
    return;
  }
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`aiython: internal error: ${detail}\n`);
  if (process.env.AIYTHON_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = ExitStatus.internal;
}

// A run whose promise never settles would let Node exit 0 once nothing is left to wait for:
// that is a bug of aiython, never the program's status.
let settled = false;
process.once("beforeExit", () => {
  if (!settled) failed(new InternalError("the run ended without an outcome"));
});
main(process.argv.slice(2))
  .then(finish, failed)
  .finally(() => (settled = true));
