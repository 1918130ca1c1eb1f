// Error classes of aiython and the exit-status table of SPEC §2. Only src/cli.ts turns these into
// an exit status; everything else throws one of these (for faults the user must fix) or returns
// a value. Messages name the fault and the fix; they never contain a secret.

export const ExitStatus = {
  ok: 0,
  uncaughtException: 1,
  usage: 2,
  internal: 70,
  /** A budget (SPEC §13) ran out and the program did not catch AIBudgetError. */
  budget: 75,
  /** The run stopped to wait for batch results (SPEC §2, §14). */
  batchWait: 76,
  config: 78,
  /** The run's time limit was reached (SPEC §2). */
  timeLimit: 124,
} as const;

/** Base class: `exitStatus` is what the CLI exits with, `message` is printed after `aiython: `. */
export class AiythonError extends Error {
  readonly exitStatus: number;
  constructor(message: string, exitStatus: number) {
    super(message);
    this.name = new.target.name;
    this.exitStatus = exitStatus;
  }
}

/** The command line is wrong: bad option, missing script, unusable interpreter (exit 2). */
export class UsageError extends AiythonError {
  constructor(message: string) {
    super(message, ExitStatus.usage);
  }
}

/** Configuration found before the program starts is wrong (exit 78). Names file and key. */
export class ConfigError extends AiythonError {
  constructor(message: string) {
    super(message, ExitStatus.config);
  }
}

/** A bug or broken invariant in aiython itself (exit 70). */
export class InternalError extends AiythonError {
  constructor(message: string) {
    super(`internal error: ${message}`, ExitStatus.internal);
  }
}

/** The bridge broke the wire protocol (bad frame, oversize frame, unknown message). */
export class ProtocolError extends InternalError {}

/** True for aiython's own errors, also those made by a copy of this module (another bundle of
 * it, as a test may load): checked by shape as well as by `instanceof`. */
export function isAiythonError(error: unknown): error is AiythonError {
  return error instanceof AiythonError || (error instanceof Error && typeof (error as { exitStatus?: unknown }).exitStatus === "number");
}

export function assertNever(value: never, what = "value"): never {
  throw new InternalError(`unexpected ${what}: ${JSON.stringify(value)}`);
}

/**
 * How a command ends, as data: an exit status (with an optional `aiython: ` line), or death by
 * a signal (the CLI re-raises it so a shell sees 128+n). Only src/cli turns it into an exit.
 */
export type RunOutcome = { kind: "status"; status: number; message?: string } | { kind: "signal"; signal: NodeJS.Signals; message?: string };
