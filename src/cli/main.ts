// The command line (SPEC §2): splits aiython's options from the program, parses them with
// commander, dispatches, and is the only place that sets the exit status. User mistakes end
// with one `aiython: …` line on stderr; nothing else of aiython's ever goes to stdout.

import { ExitStatus, isAiythonError, UsageError } from "../errors.js";
import { splitArgv } from "./split-argv.js";
import type { CliOptions } from "./options.js";
import type { RunOutcome } from "../run/run-program.js";
import { earlyStart, takeHandoff } from "./early-start.js";
import { BRIDGE_DIR } from "../recovery/bridge/start-bridge.js";
import type { BridgeProcess } from "../recovery/bridge/bridge-process.js";

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

async function dispatch(split: ReturnType<typeof splitArgv>, early: BridgeProcess | undefined): Promise<RunOutcome> {
  let options: CliOptions = {};
  if (split.optionArgs.length > 0) {
    const { parseOptions } = await import("./options.js");
    const parsed = parseOptions(split.optionArgs);
    if (parsed === null) return { kind: "status", status: 0 }; // --help, --version
    if (parsed.extra.length > 0) throw new UsageError(`unexpected argument '${parsed.extra[0]}' (see aiython --help)`);
    options = parsed.options;
  }
  if (options.profile && options.forceProfile) throw new UsageError("--profile and --force-profile cannot be used together");
  if (options.stats !== undefined && options.stats !== true && options.stats !== "json") {
    throw new UsageError(`--stats takes no value or =json, not '${options.stats}'`);
  }
  if (options.replay && options.journal === false) {
    throw new UsageError("--replay answers from the journal; drop --no-journal");
  }

  if (split.subcommand?.name === "config") {
    const { configCommand } = await import("./commands/config.js");
    return configCommand(split.subcommand.args, {
      configFile: options.config,
      profile: options.profile,
      forceProfile: options.forceProfile,
      model: options.model,
    });
  }
  if (split.subcommand?.name === "runs") {
    const { runRunsCommand } = await import("./commands/runs.js");
    return runRunsCommand(split.subcommand.args, { cwd: process.cwd(), env: process.env, configFile: options.config });
  }
  if (split.subcommand) {
    throw new UsageError(`'aiython ${split.subcommand.name}' is not available yet in this version`);
  }
  if (options.explain) {
    if (!split.program || split.program.kind !== "script") throw new UsageError("--explain needs a file: aiython --explain [--json] PATH");
    if (split.programArgs.length > 0) throw new UsageError(`--explain takes one file, not '${split.programArgs[0]}' as well`);
    const [{ explainFile }, { supportsColor }] = await Promise.all([import("./commands/explain.js"), import("chalk")]);
    return explainFile({
      file: split.program.path,
      json: Boolean(options.json),
      python: options.python,
      configFile: options.config,
      profile: options.profile,
      forceProfile: options.forceProfile,
      model: options.model,
      color: Boolean(supportsColor),
      env: process.env,
    });
  }
  if (options.json) throw new UsageError("--json goes with --explain: aiython --explain --json PATH");
  if (split.program === null) {
    if (process.stdin.isTTY) {
      const { runConsole } = await import("./commands/console.js");
      return runConsole({ python: options.python, env: process.env });
    }
    split.program = { kind: "stdin" };
  }
  const { runProgram } = await import("../run/run-program.js");
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
    stats: options.stats === undefined ? false : options.stats === "json" ? "json" : "text",
    traceFile: options.trace ?? null,
    replay: Boolean(options.replay),
    journal: options.journal !== false,
  }, early);
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

main(process.argv.slice(2)).then(finish, (error: unknown) => {
  if (isAiythonError(error)) {
    process.stderr.write(`aiython: ${error.message}\n`);
    process.exitCode = error.exitStatus;
    return;
  }
  const detail = error instanceof Error ? error.message : String(error);
  process.stderr.write(`aiython: internal error: ${detail}\n`);
  if (process.env.AIYTHON_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exitCode = ExitStatus.internal;
});
