// Where API keys come from (SPEC §7): the environment first, then the profile's `env_file`, then
// `.aiython/credentials.env` in the project root (written by `aiython setup --set-key`). A named
// `env_file` is read when the configuration loads (it must exist); the credentials file only when
// a key is missing from the environment; each file once. Values never leave this module
// except as a route's non-enumerable `apiKey`; messages name files and lines, never contents.

import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";
import { CREDENTIALS_FILE } from "../defaults.js";
import { displayPath } from "./display-path.js";
import { parseDotenv } from "./dotenv.js";
import type { CredentialSource } from "./types.js";

export interface FoundKey {
  value: string | null;
  source: CredentialSource;
}

export class CredentialLookup {
  private readonly files = new Map<string, Map<string, string>>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly projectRoot: string,
    private readonly cwd: string,
  ) {}

  /** The value of variable `name`, or `{ value: null, source: "none" }`. Empty values count as unset. */
  find(name: string, envFile: string | null): FoundKey {
    const fromEnv = this.env[name];
    if (fromEnv) return { value: fromEnv, source: "environment" };
    if (envFile !== null) {
      const value = this.read(envFile).get(name);
      if (value) return { value, source: "env_file" };
    }
    const value = this.read(path.join(this.projectRoot, CREDENTIALS_FILE)).get(name);
    if (value) return { value, source: "credentials_file" };
    return { value: null, source: "none" };
  }

  /**
   * An `env_file` the configuration names (SPEC §7): it must exist and be readable, so a typo in
   * its name is a configuration error now rather than a missing key later. `setting` names the
   * key in messages (`aiython.toml: profiles.fast.env_file`).
   */
  requireFile(file: string, setting: string): void {
    if (this.files.has(file)) return;
    const shown = displayPath(file, this.cwd);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        throw new ConfigError(`${setting}: the file ${shown} does not exist; create it with KEY=VALUE lines, or remove env_file`);
      }
      const why = code === "EACCES" || code === "EPERM" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (code ?? "read error");
      throw new ConfigError(`${setting}: cannot read ${shown} (${why}); fix its permissions or point env_file at a readable file`);
    }
    this.files.set(file, parseDotenv(text, shown));
  }

  /** A dotenv file's entries; a file that does not exist yields none (`.aiython/credentials.env` before setup). */
  private read(file: string): Map<string, string> {
    const cached = this.files.get(file);
    if (cached) return cached;
    const shown = displayPath(file, this.cwd);
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") throw new ConfigError(`${shown}: cannot read the file (${code ?? "read error"}); fix its permissions or remove it`);
    }
    const values = parseDotenv(text, shown);
    this.files.set(file, values);
    return values;
  }
}

/**
 * The absolute path of `env_file`, which must stay inside the project root — lexically and, when
 * the file exists, after following symbolic links. `key` is the dotted key for messages.
 */
export function resolveEnvFile(envFile: string, projectRoot: string, key: string, configName: string): string {
  const resolved = path.resolve(projectRoot, envFile);
  const outside = (p: string, root: string) => {
    const relative = path.relative(root, p);
    return relative === "" || relative.startsWith("..") || path.isAbsolute(relative);
  };
  const fault = `${configName}: ${key}: the file must be inside the project folder (${projectRoot}); give a path relative to aiython.toml such as ".env"`;
  if (outside(resolved, projectRoot)) throw new ConfigError(fault);
  let real: string | null = null;
  try {
    real = realpathSync(resolved);
  } catch {
    // Not there (yet): nothing to follow.
  }
  if (real !== null && outside(real, realpathSync(projectRoot))) throw new ConfigError(fault);
  return resolved;
}
