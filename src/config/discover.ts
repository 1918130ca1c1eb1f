// Finding aiython.toml (SPEC §7): the start folder or its nearest parent holding one, stopping at
// the first folder that holds `.git` (that folder is still searched). Runs on every start-up, so
// it is only `statSync` calls — no reads, no imports.

import { statSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";
import { CONFIG_FILE_NAME } from "../defaults.js";

/** The nearest aiython.toml at or above `startDir`, or null. */
export function discoverConfigFile(startDir: string): string | null {
  let dir = path.resolve(startDir);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    // `.git` is a folder in a clone and a file in a worktree or submodule: either ends the walk.
    if (statSync(path.join(dir, ".git"), { throwIfNoEntry: false })) return null;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** `--config FILE`: exactly that file, resolved against cwd. */
export function explicitConfigFile(file: string, cwd: string): string {
  const resolved = path.resolve(cwd, file);
  const stat = statSync(resolved, { throwIfNoEntry: false });
  if (!stat) throw new ConfigError(`--config: ${file}: no such file; give the path of an existing aiython.toml`);
  if (!stat.isFile()) throw new ConfigError(`--config: ${file}: not a file; give the path of an aiython.toml`);
  return resolved;
}

/** Where discovery starts: the program file's folder, else the working directory. */
export function discoveryStart(scriptPath: string | null, cwd: string): string {
  return scriptPath === null ? path.resolve(cwd) : path.dirname(path.resolve(cwd, scriptPath));
}
