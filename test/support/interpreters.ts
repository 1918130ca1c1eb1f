// The interpreters the end-to-end comparisons run on (3.11 from pyenv, else python3; 3.12 and
// 3.13 from pyenv when installed), and a run of aiython beside python3 on the same arguments.

import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { CLI, cleanEnv } from "./run-cli.js";

const PYENV = "/root/.pyenv/versions";

/** The pyenv interpreter of `version` (e.g. "3.12"), or null. */
export function pythonAt(version: string): string | null {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(`${version}.`)) : undefined;
  const exe = dir && ["python3", "python"].map((name) => path.join(PYENV, dir, "bin", name)).find((p) => fs.existsSync(p));
  return exe ?? null;
}

/** [version, interpreter or null when absent] for 3.11, 3.12 and 3.13. */
export const INTERPRETERS: [string, string | null][] = [
  ["3.11", pythonAt("3.11") ?? "python3"],
  ["3.12", pythonAt("3.12")],
  ["3.13", pythonAt("3.13")],
];

/** A model at an address where nothing listens: recovery is on, and nothing is asked unless something fails. */
export const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test" };

/** The two modes a program runs in: no model configured, and one that is never reached. */
export const MODES: [string, Record<string, string>][] = [
  ["unconfigured", {}],
  ["configured", DEAD_MODEL],
];

/** `aiython --python PYTHON ARGS` (with `model`'s environment) and `PYTHON ARGS`, side by side in `cwd`. */
export async function besidePython(python: string, args: string[], model: Record<string, string>, cwd: string) {
  const options = { cwd, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 90_000 };
  const [ours, theirs] = await Promise.all([
    execa(CLI, ["--python", python, "--no-journal", ...args], { ...options, env: cleanEnv(model) }),
    execa(python, args, { ...options, env: cleanEnv() }),
  ]);
  return { ours, theirs };
}
