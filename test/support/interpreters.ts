// The interpreters end-to-end tests compare on: 3.11 (python3 where pyenv has none), 3.12 and
// 3.13 from pyenv when installed (a test for a missing one is skipped, saying which).

import fs from "node:fs";
import path from "node:path";

const PYENV = "/root/.pyenv/versions";

/** The pyenv interpreter of `version` (e.g. "3.12"), or null. */
export function pythonAt(version: string): string | null {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(`${version}.`)) : undefined;
  const exe = dir && ["python3", "python"].map((name) => path.join(PYENV, dir, "bin", name)).find((p) => fs.existsSync(p));
  return exe ?? null;
}

/** [major.minor, interpreter or null] for each supported version. */
export const INTERPRETERS: [string, string | null][] = [
  ["3.11", pythonAt("3.11") ?? "python3"],
  ["3.12", pythonAt("3.12")],
  ["3.13", pythonAt("3.13")],
];
