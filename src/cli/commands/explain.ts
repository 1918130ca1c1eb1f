// `aiython --explain [--json] PATH` (SPEC §3.4): reads the file, has run/explain.ts plan it, and
// prints the plan for people (highlighted source) or as JSON. Runs nothing, calls no model.

import fs from "node:fs";
import path from "node:path";
import { ExitStatus, UsageError, type RunOutcome } from "../../errors.js";
import { decodeSource } from "../../frontend/source-text.js";
import { explainPlan } from "../../run/explain.js";
import { renderExplainJson } from "../../run/explain-json.js";
import { explainTextChunks } from "../../run/explain-text.js";
import type { CliOptions } from "../options.js";
import type { SplitArgs } from "../split-argv.js";
import { writeStdout } from "../stdout.js";

export interface ExplainCommand {
  file: string;
  json: boolean;
  python?: string;
  configFile?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  color: boolean;
  env: NodeJS.ProcessEnv;
}

export async function explainCommand(split: SplitArgs, options: CliOptions): Promise<RunOutcome> {
  if (split.program?.kind !== "script") throw new UsageError("--explain needs a file: aiython --explain [--json] PATH");
  if (split.programArgs.length > 0) throw new UsageError(`--explain takes one file, not '${split.programArgs[0]}' as well`);
  const { supportsColor } = await import("chalk");
  return explainFile({
    file: split.program.path,
    json: Boolean(options.json),
    python: options.python,
    configFile: options.config,
    profile: options.profile,
    forceProfile: options.forceProfile,
    model: options.model,
    color: colourWanted(process.env, Boolean(supportsColor)),
    env: process.env,
  });
}

/**
 * NO_COLOR (set and not empty, no-color.org) turns colour off whatever else says, as in Python's
 * own tracebacks; chalk alone ignores it. Otherwise chalk decides: FORCE_COLOR, then a terminal.
 */
export function colourWanted(env: NodeJS.ProcessEnv, chalkSupports: boolean): boolean {
  if (env.NO_COLOR) return false;
  return chalkSupports;
}

export async function explainFile(command: ExplainCommand): Promise<RunOutcome> {
  const source = decodeSource(readProgram(command.file));
  const explained = await explainPlan({ ...command, source });
  if (explained.kind === "diagnostics") return { kind: "status", status: ExitStatus.config, message: explained.message };
  if (!command.json) {
    // A large file's listing is written a chunk at a time, as it is made (each ends in a line break).
    for (const chunk of explainTextChunks(explained.plan, explained.checkpoints, source, { color: command.color })) await writeStdout(chunk);
    return { kind: "status", status: 0 };
  }
  const output = renderExplainJson(explained.plan, explained.checkpoints, { file: command.file, python: explained.python, config: explained.config });
  await writeStdout(output.endsWith("\n") ? output : `${output}\n`);
  return { kind: "status", status: 0 };
}

function readProgram(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") throw new UsageError(`--explain needs a .py file, and '${file}' is a folder`);
    throw new UsageError(`can't open file '${path.resolve(file)}': ${code === "ENOENT" ? "No such file or directory" : (error as Error).message}`);
  }
}
