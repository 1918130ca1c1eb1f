// The command line (SPEC §2): splits aiython's options from the program, parses them with
// commander, dispatches to one of commands/, and is the only place that sets the exit status.
// User mistakes end with one `aiython: …` line on stderr; nothing else of aiython's ever goes
// to stdout.

import { ExitStatus, isAiythonError, UsageError, type RunOutcome } from "../errors.js";
import type { BridgeProcess } from "../recovery/bridge/bridge-process.js";
import { BRIDGE_DIR } from "../recovery/bridge/start-bridge.js";
import { earlyStart, takeHandoff } from "./early-start.js";
import type { CliOptions } from "./options.js";
import { splitArgv, type SplitArgs } from "./split-argv.js";

async function main(argv: string[]): Promise<RunOutcome> {
  const split = splitArgv(argv);
  const early = takeHandoff(argv) ?? earlyStart(argv, BRIDGE_DIR);
  try {
    return await dispatch(split, early);
  } catch (error) {
    early?.kill("SIGKILL");
    throw error;
  }
}

async function dispatch(split: SplitArgs, early: BridgeProcess | undefined): Promise<RunOutcome> {
  const options = await parsedOptions(split);
  if (options === null) return { kind: "status", status: 0 }; // --help, --version
  if (split.subcommand) return subcommand(split.subcommand, options);
  if (options.explain) {
    const { explainCommand } = await import("./commands/explain.js");
    return explainCommand(split, options);
  }
  if (options.json) throw new UsageError("--json goes with --explain: aiython --explain --json PATH");
  const { runCommand } = await import("./commands/run.js");
  return runCommand(split, options, early);
}

async function subcommand(command: { name: string; args: string[] }, options: CliOptions): Promise<RunOutcome> {
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
  if (options.replay && options.journal === false) throw new UsageError("--replay answers from the journal; drop --no-journal");
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

main(process.argv.slice(2)).then(finish, failed);
