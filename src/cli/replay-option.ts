// `--replay[=RUN_ID][,fill]` (SPEC §2, §11.1): what the option's value asks for. Without a run
// id the source is the latest run of the same command line; `fill` sends and records what the
// journal does not answer.

import { UsageError } from "../errors.js";
import type { ReplayChoice } from "../run/run-command.js";

const FORM = /^(?:(\d+)(,fill)?|fill)$/;

/** The choice for an option value (undefined: no --replay; true: --replay alone). */
export function replayChoice(value: string | boolean | undefined): ReplayChoice | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { run: null, fill: false };
  const match = FORM.exec(value);
  const run = match?.[1] === undefined ? null : Number(match[1]);
  if (!match || (run !== null && (!Number.isSafeInteger(run) || run < 1))) {
    throw new UsageError(`--replay takes no value, =fill, =RUN_ID or =RUN_ID,fill (run ids as aiython runs list shows them), not '${value}'`);
  }
  return { run, fill: value === "fill" || match[2] !== undefined };
}
