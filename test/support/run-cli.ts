// Runs the built CLI (bin/aiython → dist/) and python3 side by side for end-to-end tests.

import assert from "node:assert/strict";
import { execa, type Options, type Result } from "execa";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The built CLI; AIYTHON_TEST_CLI points the end-to-end tests at another build (e.g. to show a test fails on an older commit). */
export const CLI = process.env.AIYTHON_TEST_CLI ?? path.join(ROOT, "bin", "aiython");
export const PROGRAMS = path.join(ROOT, "test", "fixtures", "programs");
export const PYTHON = process.env.AIYTHON_TEST_PYTHON ?? "python3";

export interface Ran {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  signal: string | undefined;
}

const base: Options = { reject: false, stripFinalNewline: false, cwd: PROGRAMS, timeout: 60_000 };

function ran(result: Result): Ran {
  return {
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    exitCode: result.exitCode,
    signal: result.signal,
  };
}

/**
 * Variables that decide colour, in Node (chalk), in Python 3.13+ tracebacks, and in the tools
 * tests run. `node --test` sets FORCE_COLOR for its test processes whenever its own stdout is a
 * terminal, and a developer's shell may set the others: none of them reaches a child.
 */
const COLOUR_VARIABLES = ["FORCE_COLOR", "NO_COLOR", "NODE_DISABLE_COLORS", "CLICOLOR", "CLICOLOR_FORCE", "PYTHON_COLORS"];
/** A CI service's marks: colour detection turns colour off on a terminal when it sees one. */
const CI_VARIABLES = ["CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID", "TEAMCITY_VERSION", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE"];

/**
 * The environment without anything that would configure a model or change the interpreter, and
 * with a defined colour environment: no colour variable, TERM=dumb (a test about colour or a
 * terminal sets what it needs in `extra`). The same on a terminal as on a pipe or in CI.
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("AIYTHON_") || key.startsWith("OPENAI_") || key === "VIRTUAL_ENV" || COLOUR_VARIABLES.includes(key) || CI_VARIABLES.includes(key)) delete env[key];
  }
  // node --test marks its test processes so; a Node child (the demo, a nested test run) must not think it is one.
  delete env.NODE_TEST_CONTEXT;
  return { ...env, TERM: "dumb", ...extra };
}

export async function aiython(args: string[], options: Options = {}): Promise<Ran> {
  return ran(await execa(CLI, args, { ...base, env: cleanEnv(), extendEnv: false, ...options }));
}

export async function python(args: string[], options: Options = {}): Promise<Ran> {
  return ran(await execa(PYTHON, args, { ...base, env: cleanEnv(), extendEnv: false, ...options }));
}

/** Runs the same arguments under both and returns both results. */
export async function both(args: string[], options: Options = {}): Promise<{ ours: Ran; theirs: Ran }> {
  const [ours, theirs] = await Promise.all([aiython(args, options), python(args, options)]);
  return { ours, theirs };
}

/** Runs `args` under both (python3 gets `pythonArgs` when it differs) and asserts the same stdout, stderr and status; our result. */
export async function assertSame(args: string[], options: Options = {}, pythonArgs: string[] = args): Promise<Ran> {
  const [ours, theirs] = await Promise.all([aiython(args, options), python(pythonArgs, options)]);
  assert.equal(ours.stdout, theirs.stdout, "stdout differs");
  assert.equal(ours.stderr, theirs.stderr, "stderr differs");
  assert.equal(ours.exitCode, theirs.exitCode, "exit status differs");
  return ours;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
