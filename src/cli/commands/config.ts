// `aiython config show` (SPEC §2, §7): the resolved configuration as JSON, without secrets.

import { UsageError } from "../../errors.js";
import { loadConfig, renderConfigShow } from "../../config/index.js";
import type { RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";

export async function configCommand(
  args: string[],
  options: { configFile?: string; profile?: string; forceProfile?: string; model?: string },
): Promise<RunOutcome> {
  if (args.length !== 1 || args[0] !== "show") {
    throw new UsageError(`unknown command 'aiython config ${args.join(" ")}'; use: aiython config show`);
  }
  const config = await loadConfig({ scriptPath: null, cwd: process.cwd(), ...options, env: process.env });
  await writeStdout(`${renderConfigShow(config).trimEnd()}\n`);
  return { kind: "status", status: 0 };
}
