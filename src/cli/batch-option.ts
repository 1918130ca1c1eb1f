// `--batch[=fallback-live|dir:PATH]` (SPEC §2, §14): what the option's value asks for. Alone it
// sends the run's model requests through the route's Batch API; `fallback-live` sends a failed or
// expired line live instead of in the next batch; `dir:PATH` writes the requests to a folder for
// an engine without a batch endpoint (PATH relative to the run's working folder: a resumed run's
// is the recorded one, so the run resolves it, not the command line).

import { UsageError } from "../errors.js";
import type { BatchChoice } from "../run/run-command.js";

/** The choice for an option value (undefined: no --batch; true: --batch alone). */
export function batchChoice(value: string | boolean | undefined): BatchChoice | null {
  if (value === undefined || value === false) return null;
  if (value === true) return { fallbackLive: false, dir: null };
  if (value === "fallback-live") return { fallbackLive: true, dir: null };
  if (value.startsWith("dir:") && value.length > "dir:".length) return { fallbackLive: false, dir: value.slice("dir:".length) };
  throw new UsageError(`--batch takes no value, =fallback-live or =dir:PATH (a folder for the requests files), not '${value}'`);
}
