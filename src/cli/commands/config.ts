// `aiython config show` (SPEC §2, §7): the resolved configuration as JSON, without secrets.

import { UsageError } from "../../errors.js";
import { loadConfig, renderConfigShow } from "../../config/index.js";
import type { RunOutcome } from "../../errors.js";
import { writeStdout } from "../stdout.js";

export async function configCommand(args: string[], options: { configFile?: string; profile?: string; forceProfile?: string; model?: string }): Promise<RunOutcome> {
  if (args.length === 0) throw new UsageError("config needs a command: aiython config show (to write aiython.toml: aiython setup)");
  if (args[0] !== "show") throw new UsageError(`unknown config command '${args[0]}'; use: aiython config show (to write aiython.toml: aiython setup)`);
  if (args.length > 1) throw new UsageError(`config show takes no arguments, not '${args[1]}'; use: aiython config show`);
  const config = await loadConfig({ scriptPath: null, cwd: process.cwd(), ...options, env: process.env });
  await writeStdout(`${renderConfigShow(config).trimEnd()}\n`);
  return { kind: "status", status: 0 };
}
