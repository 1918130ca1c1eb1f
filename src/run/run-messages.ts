// The run's two ends as the protocol has them (docs/protocol.md): the RunOptions of the `run`
// request that starts the program in the bridge (from the configuration and the command line, the
// preparation cache's place and bounds included, SPEC §4.1), and the RunOutcome made of how the
// interpreter ended (SPEC §2): its exit status, a signal it died of (relayed from the user, quiet,
// or unexpected: 128+n with a message), or a fault (a protocol violation, a fatal host error),
// and the end of an interpreter that ended while a model's tool ran (SPEC §9); and how the run
// ended, as the journal keeps it (SPEC §11.2).

import os from "node:os";
import path from "node:path";
import { profileFor, type ResolvedConfig } from "../config/index.js";
import { ENV_NO_CACHE, PREPARATION_CACHE_DIR, PREPARATION_CACHE_MAX_BYTES, QUIET_SIGNALS } from "../defaults.js";
import { ExitStatus, InternalError, type RunOutcome } from "../errors.js";
import type { BridgeEnd } from "../bridge/bridge-process.js";
import type { EndedHow } from "../journal/index.js";
import type { PreparationCacheOptions, RunOptions } from "../bridge/protocol.js";
import { CACHE_VERSION } from "../version.js";
import type { RunLimits } from "./run-limits.js";
import type { RunCommand } from "./run-command.js";

/** The program's RunOptions for this command and configuration. */
export function runOptions(command: RunCommand, config: ResolvedConfig, limits: RunLimits): RunOptions {
  const profile = config.modelConfigured ? profileFor(config, null) : null;
  return {
    model_configured: config.modelConfigured,
    inspect: command.interpreter.inspect,
    skip_first_line: command.interpreter.skipFirstLine,
    project_root: config.projectRoot,
    context_values: profile?.contextValues ?? true,
    cache: cacheOptions(command, config),
    // Only when on: with "ai" the options (and every prepared source) are a run's without the key.
    ...(profileFor(config, null).typeContracts === "all" ? { type_contracts: "all" as const } : {}),
    ...(limits.memory ? { memory_limit: limits.memory.mb } : {}),
  };
}

/** The preparation cache (SPEC §4.1) under the project root, unless `cache = false` or AIYTHON_NO_CACHE. */
function cacheOptions(command: RunCommand, config: ResolvedConfig): PreparationCacheOptions | null {
  const off = command.env[ENV_NO_CACHE];
  if ((off !== undefined && off !== "" && off !== "0") || !profileFor(config, null).cache) return null;
  return { dir: path.join(config.projectRoot, PREPARATION_CACHE_DIR), version: CACHE_VERSION, max_bytes: PREPARATION_CACHE_MAX_BYTES };
}

/** A bug or a broken promise of the protocol: exit 70 with the message of an InternalError. */
export function internalOutcome(message: string): RunOutcome {
  return { kind: "status", status: ExitStatus.internal, message: new InternalError(message).message };
}

/** The run's outcome from how the interpreter ended; `relayed` is the signal the host passed on to it. */
export function outcomeOf(end: BridgeEnd, relayed: NodeJS.Signals | null): RunOutcome {
  if (end.fatal) return internalOutcome(end.fatal.message);
  if (end.protocolError) return { kind: "status", status: ExitStatus.internal, message: end.protocolError.message };
  if (end.signal) {
    if (relayed) return { kind: "signal", signal: relayed };
    if (QUIET_SIGNALS.has(end.signal)) return { kind: "signal", signal: end.signal };
    const number = os.constants.signals[end.signal] ?? 0;
    return { kind: "status", status: 128 + number, message: `the Python process ended unexpectedly (signal ${number})` };
  }
  return { kind: "status", status: end.code ?? ExitStatus.internal };
}

/**
 * The interpreter ended while a model's tool ran (SPEC §9: a tool cannot end the run; what the
 * guard could not refuse, e.g. `_exit` through ctypes): never silent, and never a success.
 */
export function endedInTool(inTool: string | null, end: BridgeEnd, relayed: NodeJS.Signals | null): RunOutcome | null {
  if (inTool === null || relayed !== null || end.fatal || end.protocolError) return null;
  const how = end.signal ? `signal ${end.signal}` : `exit status ${end.code}`;
  const message = `${inTool} was running when the Python process ended (${how}); the rest of the program did not run`;
  if (end.signal) return { ...outcomeOf(end, relayed), message };
  return { kind: "status", status: end.code ? end.code : ExitStatus.uncaughtException, message };
}

/** The program ended with an uncaught AIBudgetError: exit 75 and what was spent (SPEC §13); `budget` null: nothing counted. */
export function budgetOutcome(end: BridgeEnd, budget: { summary(): string } | null): RunOutcome | null {
  if (!end.budgetExhausted || end.code !== ExitStatus.uncaughtException || !budget) return null;
  return { kind: "status", status: ExitStatus.budget, message: budget.summary() };
}

/**
 * Whether the program ended the run itself (its exit status, uncaught exceptions included), or how
 * it was cut short: `cutShort` as the run knew it, `problem` the outcome that stopped the run (if
 * one did), `budgetEnded` whether budgetOutcome gave the outcome.
 */
export function endedHow(outcome: RunOutcome, end: BridgeEnd, cutShort: EndedHow | null, problem: RunOutcome | null, budgetEnded: boolean): EndedHow {
  if (cutShort) return cutShort;
  if (outcome.kind === "signal") return "signal";
  if (end.fatal || end.protocolError || (problem?.kind === "status" && problem.status === ExitStatus.internal)) return "internal";
  if (problem === null && budgetEnded) return "budget";
  if (end.signal) return "lost"; // the interpreter died of a signal nobody relayed to it
  return "exit";
}
