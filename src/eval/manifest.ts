// What `aiython eval PROGRAM|FOLDER` runs: one program, or the programs of a folder, each with its
// arguments and what a passing run is — an expected output (the whole of stdout) or a check (a
// Python file that reads the run's stdout on stdin and exits 0 when it passes; the run's exit
// status is in AIYTHON_EVAL_EXIT, the program's path in AIYTHON_EVAL_PROGRAM). They come from `eval.toml` in the program's folder:
//
//   [[program]]
//   file = "tickets.py"          # relative to eval.toml
//   args = ["--today"]
//   expect = "billing\n"         # or expect_file = "tickets.out", or check = "checks/tickets.py"
//
// A folder without eval.toml runs each of its *.py files; a program without an expectation passes
// when it exits 0. Faults name eval.toml, the program and the fix (read through config/).

import fs from "node:fs";
import path from "node:path";
import { parseTomlText, readConfigText } from "../config/index.js";
import { UsageError } from "../errors.js";

export const MANIFEST = "eval.toml";

export interface EvalProgram {
  /** As shown in the report: relative to the folder evaluated (or the file's name). */
  name: string;
  file: string;
  args: string[];
  /** The whole stdout a passing run prints, or null. */
  expect: string | null;
  /** A Python predicate file, or null. */
  check: string | null;
}

const KEYS = ["file", "args", "expect", "expect_file", "check"];

export async function evalPrograms(target: string, cwd: string): Promise<EvalProgram[]> {
  const resolved = path.resolve(cwd, target);
  const stat = fs.statSync(resolved, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`${target}: no such file or folder; aiython eval takes a program or a folder of programs`);
  const folder = stat.isDirectory() ? resolved : path.dirname(resolved);
  const manifest = path.join(folder, MANIFEST);
  const listed = fs.existsSync(manifest) ? await manifestPrograms(manifest, folder) : null;
  if (stat.isDirectory()) {
    if (listed) return listed;
    const files = fs
      .readdirSync(folder)
      .filter((name) => name.endsWith(".py"))
      .sort();
    if (files.length === 0) throw new UsageError(`${target}: no .py files and no ${MANIFEST} to evaluate`);
    return files.map((name) => bare(path.join(folder, name), name));
  }
  return [listed?.find((p) => p.file === resolved) ?? bare(resolved, path.basename(resolved))];
}

const bare = (file: string, name: string): EvalProgram => ({ name, file, args: [], expect: null, check: null });

async function manifestPrograms(manifest: string, folder: string): Promise<EvalProgram[]> {
  const shown = path.relative(process.cwd(), manifest) || MANIFEST;
  const document = (await parseTomlText(readConfigText(manifest, shown), shown)) as Record<string, unknown>;
  const extra = Object.keys(document).filter((key) => key !== "program");
  if (extra.length > 0) throw new UsageError(`${shown}: unknown key '${extra[0]}'; ${MANIFEST} holds [[program]] tables`);
  const list = document.program;
  if (!Array.isArray(list) || list.length === 0) throw new UsageError(`${shown}: no [[program]] tables; add one per program, e.g. [[program]] file = "main.py"`);
  return list.map((table, i) => programOf(table as Record<string, unknown>, `${shown}: program ${i + 1}`, folder));
}

function programOf(table: Record<string, unknown>, where: string, folder: string): EvalProgram {
  const fail = (problem: string): never => {
    throw new UsageError(`${where}: ${problem}`);
  };
  const unknown = Object.keys(table).find((key) => !KEYS.includes(key));
  if (unknown) fail(`unknown key '${unknown}'; a program has ${KEYS.join(", ")}`);
  const text = (key: string): string | null => {
    const value = table[key];
    if (value === undefined) return null;
    if (typeof value !== "string") fail(`'${key}' must be a string`);
    return value as string;
  };
  const name = text("file") ?? fail(`'file' is missing; name the program, e.g. file = "main.py"`);
  const file = path.resolve(folder, name);
  if (!fs.existsSync(file)) fail(`${name}: no such file next to ${MANIFEST}`);
  const args = table.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) fail(`'args' must be a list of strings`);
  const given = ["expect", "expect_file", "check"].filter((key) => table[key] !== undefined);
  if (given.length > 1) fail(`give one of expect, expect_file or check, not ${given.join(" and ")}`);
  const expectFile = text("expect_file");
  let expect = text("expect");
  if (expectFile !== null) {
    const at = path.resolve(folder, expectFile);
    if (!fs.existsSync(at)) fail(`expect_file ${expectFile}: no such file`);
    expect = fs.readFileSync(at, "utf8");
  }
  const checkName = text("check");
  const check = checkName === null ? null : path.resolve(folder, checkName);
  if (check !== null && !fs.existsSync(check)) fail(`check ${checkName}: no such file`);
  return { name, file, args: args as string[], expect, check };
}
