// One run of one program for `aiython eval`: `aiython [options] --trace FILE PROGRAM ARGS` in the
// program's folder, journaled as any run, told which repetition it is (AIYTHON_EVAL_RUN=k, which a
// scripted model's sequences start from), then judged: the expected output, else the check file,
// else exit 0. Under `--replay` each run replays the recorded run of the same repetition.

import fs from "node:fs";
import path from "node:path";
import { ENV_EVAL_RUN } from "../defaults.js";
import type { EvalProgram } from "./manifest.js";
import { runAiython, runPython } from "./spawn-aiython.js";
import { readTrace, type InvocationResult } from "./trace-read.js";

export interface RunSettings {
  /** aiython's own options for every run (--profile, --config, budgets, --time-limit …). */
  options: string[];
  env: NodeJS.ProcessEnv;
  /** A folder of this eval's trace files. */
  traces: string;
}

export interface RunResult {
  repetition: number;
  status: number;
  passed: boolean;
  /** Why a run did not pass, in one line. */
  why: string | null;
  seconds: number;
  invocations: InvocationResult[];
  /** The run's trace file: the journal's command line names it, which finds the run's id. */
  trace: string;
}

/** `replay`: the recorded run this one replays (null: a run the journal has no record of, as one that never got an answer: every request is a miss); absent: a live run. */
export async function runOnce(program: EvalProgram, repetition: number, settings: RunSettings, replay?: { run: number | null }): Promise<RunResult> {
  const trace = path.join(settings.traces, `${path.basename(program.file)}-${repetition}-${process.pid}-${Date.now()}.jsonl`);
  const replayed = replay === undefined ? [] : [replay.run === null ? "--replay" : `--replay=${replay.run}`];
  const args = [...settings.options, ...replayed, "--trace", trace, program.file, ...program.args];
  const env = { ...settings.env, [ENV_EVAL_RUN]: String(repetition) };
  const ran = await runAiython(args, { cwd: path.dirname(program.file), env });
  const invocations = readTrace(trace);
  const { passed, why } = await judged(program, ran.stdout, ran.status, settings);
  return { repetition, status: ran.status, passed, why, seconds: ran.seconds, invocations, trace };
}

async function judged(program: EvalProgram, stdout: string, status: number, settings: RunSettings): Promise<{ passed: boolean; why: string | null }> {
  if (program.expect !== null) {
    if (stdout === program.expect) return { passed: true, why: null };
    return { passed: false, why: `output differs from the expected at line ${firstDifference(stdout, program.expect)}` };
  }
  if (program.check !== null) {
    const env = { ...settings.env, AIYTHON_EVAL_EXIT: String(status), AIYTHON_EVAL_PROGRAM: program.file };
    const ran = await runPython(program.check, { cwd: path.dirname(program.check), env, input: stdout });
    const said = ran.stderr.trim().split("\n").at(-1) ?? "";
    return ran.status === 0 ? { passed: true, why: null } : { passed: false, why: `check ${path.basename(program.check)} exited ${ran.status}${said ? `: ${said}` : ""}` };
  }
  return status === 0 ? { passed: true, why: null } : { passed: false, why: `exit ${status}` };
}

function firstDifference(actual: string, expected: string): number {
  const a = actual.split("\n");
  const e = expected.split("\n");
  const at = a.findIndex((line, i) => line !== e[i]);
  return (at === -1 ? a.length : at) + 1;
}

/** Removes this eval's trace files once the report has what it needs. */
export function removeTraces(folder: string): void {
  fs.rmSync(folder, { recursive: true, force: true });
}
