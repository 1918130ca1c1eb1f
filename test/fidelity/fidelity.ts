// The fidelity run: each program of the corpus in every mode, compared with its first mode
// (python3). Programs run two at a time (the machine has two cores); the modes of one program run
// one after another in the same project folder, so they never disturb each other. Results are
// handed over in corpus order as soon as they are known. Used by run.ts and test/fidelity.test.ts.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compareRuns, type Difference } from "./compare.js";
import { documentedDifference, type DocumentedDifference } from "./documented.js";
import type { Interpreter } from "./interpreter.js";
import type { Program } from "./program.js";
import { prepareProject } from "./project.js";
import { runMode, type Mode, type ModeName, type Run } from "./run-mode.js";

export const JOBS = 2;
export const TIMEOUT_SECONDS = 60;

export interface ModeDifferences {
  mode: ModeName;
  differences: Difference[];
  /** Set when README's "Known differences" explains exactly these differences (documented.ts). */
  documented?: DocumentedDifference;
}

export type ProgramResult =
  | { name: string; status: "skipped"; reason: string }
  | { name: string; status: "broken"; reason: string }
  | { name: string; status: "compared"; baselineExit: string; modes: ModeDifferences[] };

export interface FidelityOptions {
  interp: Interpreter;
  programs: Program[];
  modes: readonly Mode[];
  /** Save every run's raw stdout, stderr, exit status and leftovers under this folder. */
  keep?: string;
  onResult?: (result: ProgramResult) => void;
}

export function isIdentical(result: ProgramResult): boolean {
  return result.status === "skipped" || (result.status === "compared" && result.modes.every((m) => m.differences.length === 0));
}

/** Identical, or differing only as README's "Known differences" documents. */
export function isAccepted(result: ProgramResult): boolean {
  return result.status === "skipped" || (result.status === "compared" && result.modes.every((m) => m.differences.length === 0 || m.documented));
}

/** The entries `only` names (all of them when empty), or only the --fast ones; throws on an unknown name. */
export function selectPrograms(all: Program[], options: { only: string[]; fast: boolean }): Program[] {
  const unknown = options.only.filter((name) => !all.some((p) => p.name === name));
  if (unknown.length) throw new Error(`no program named ${unknown.join(", ")} in the corpus; the names are: ${all.map((p) => p.name).join(" ")}`);
  if (options.only.length) return all.filter((p) => options.only.includes(p.name));
  return options.fast ? all.filter((p) => p.fast) : all;
}

export async function runFidelity(options: FidelityOptions): Promise<ProgramResult[]> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "aiython-fidelity-")));
  const results: ProgramResult[] = [];
  let next = 0;
  let handed = 0;
  const worker = async (): Promise<void> => {
    while (next < options.programs.length) {
      const index = next++;
      results[index] = await runProgram(options.programs[index], root, options);
      for (; results[handed]; handed++) options.onResult?.(results[handed]);
    }
  };
  try {
    await Promise.all(Array.from({ length: JOBS }, worker));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return results;
}

async function runProgram(program: Program, root: string, options: FidelityOptions): Promise<ProgramResult> {
  const { name } = program;
  if (program.unavailable) return { name, status: "skipped", reason: program.unavailable };
  let project: ReturnType<typeof prepareProject>;
  try {
    project = prepareProject(root, program, options.interp);
  } catch (error) {
    return { name, status: "broken", reason: (error as Error).message };
  }
  const runs: Run[] = [];
  for (const mode of options.modes) {
    const run = await runMode(program, mode, project, options.interp, TIMEOUT_SECONDS * 1000);
    runs.push(run);
    if (options.keep) keepRun(path.join(options.keep, name), mode.name, run);
  }
  fs.rmSync(project.work, { recursive: true, force: true });
  fs.rmSync(project.pristine, { recursive: true, force: true });
  const [baseline, ...others] = runs;
  const modes = others.map((run, i) => compareMode(name, options.modes[i + 1].name, run, baseline, options.interp));
  return { name, status: "compared", baselineExit: baseline.timedOut ? "timed out" : baseline.exit, modes };
}

function compareMode(program: string, mode: ModeName, run: Run, baseline: Run, interp: Interpreter): ModeDifferences {
  const differences = compareRuns(run, baseline, TIMEOUT_SECONDS);
  const onlyOutput = differences.length > 0 && differences.every((d) => d.kind === "line" || d.kind === "exit");
  const documented = onlyOutput ? documentedDifference(program, mode, interp.version, run, baseline, differences) : undefined;
  return documented ? { mode, differences, documented } : { mode, differences };
}

function keepRun(dir: string, mode: string, run: Run): void {
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, mode.replace(/ /g, "-"));
  fs.writeFileSync(`${base}.stdout`, run.stdout);
  fs.writeFileSync(`${base}.stderr`, run.stderr);
  fs.writeFileSync(`${base}.status`, `exit ${run.exit}${run.timedOut ? " (timed out)" : ""}\nleft ${run.left.join(" ")}\n`);
}
