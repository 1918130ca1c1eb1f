// A program's project folder. It is built once as a pristine copy (the corpus files, a `.git/`
// marker so the files are project code, and whatever the entry's setup code makes), and every
// mode runs in the same work path, restored from the pristine copy just before: the path in
// tracebacks is the same in every mode, and one mode never sees another's leftovers.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Interpreter } from "./interpreter.js";
import type { Program } from "./program.js";

export interface Project {
  /** Where the program runs. */
  work: string;
  pristine: string;
  /** What the pristine copy holds (relative paths, folders ending in "/"). */
  initial: ReadonlySet<string>;
}

/** Builds the pristine copy of `program` under `root`, or throws saying what failed. */
export function prepareProject(root: string, program: Program, interp: Interpreter): Project {
  const work = path.join(root, program.name);
  const pristine = path.join(root, ".pristine", program.name);
  fs.mkdirSync(path.join(pristine, ".git"), { recursive: true });
  for (const copy of program.copies) {
    const target = path.join(pristine, copy.to);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.cpSync(copy.from, target, { recursive: true, preserveTimestamps: true, filter: (src) => path.basename(src) !== "__pycache__" });
  }
  for (const folder of program.folders ?? []) fs.mkdirSync(path.join(pristine, folder), { recursive: true });
  if (program.setup) {
    const setup = spawnSync(interp.command, ["-c", program.setup], { cwd: pristine, encoding: "utf8" });
    if (setup.status !== 0) throw new Error(`setup of ${program.name} failed: ${setup.error?.message ?? setup.stderr.trim()}`);
  }
  return { work, pristine, initial: new Set(listFiles(pristine)) };
}

/** Puts the work folder back as the pristine copy is. */
export function restoreProject(project: Project): void {
  fs.rmSync(project.work, { recursive: true, force: true });
  fs.cpSync(project.pristine, project.work, { recursive: true, preserveTimestamps: true });
}

/** What the last run added to the work folder (relative paths, folders ending in "/"). */
export function leftBehind(project: Project): string[] {
  return listFiles(project.work).filter((file) => !project.initial.has(file));
}

function listFiles(dir: string, prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const rel = prefix + entry.name;
      return entry.isDirectory() ? [`${rel}/`, ...listFiles(path.join(dir, entry.name), `${rel}/`)] : [rel];
    });
}
