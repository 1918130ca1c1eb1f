// Helpers for the configuration tests (test/config-*.test.ts): a fake API key, temporary projects
// with a `.git`, loading the configuration of one with an empty environment, catching the
// ConfigError a load or lookup throws, and writing aiython.toml text (version 3) line by line.

import assert from "node:assert/strict";
import { ConfigError, ExitStatus } from "../../src/errors.js";
import { loadConfig, type ConfigInputs, type ResolvedConfig } from "../../src/config/index.js";
import { tempProject } from "./temp-project.js";

export const FAKE_KEY = "sk-test-FAKEKEY-4f9c2e7a1b";

/** A temporary folder with the given files (path → text); `.git/` is created unless `git: false`. */
export function project(files: Record<string, string>, options: { git?: boolean } = {}): string {
  return tempProject(files, { ...options, prefix: "aiython-config-" });
}

export function load(cwd: string, overrides: Partial<ConfigInputs> = {}): Promise<ResolvedConfig> {
  return loadConfig({ scriptPath: "main.py", cwd, env: {}, ...overrides });
}

/** Runs `fn`, asserts it throws a ConfigError (exit 78), and returns the message. */
export async function configError(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    assert.equal(error.exitStatus, ExitStatus.config);
    return error.message;
  }
  assert.fail("expected a ConfigError");
}

export const toml = (...lines: string[]) => ["version = 3", ...lines, ""].join("\n");
