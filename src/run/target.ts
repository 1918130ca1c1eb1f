// What the command line asks to run, checked before the interpreter starts so that user mistakes
// get one clear line and exit 2 (SPEC §2): a missing script, a folder without __main__.py, an
// unreadable file.

import fs from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import type { RunTarget } from "../bridge/protocol.js";

export type ProgramSpec =
  | { kind: "script"; path: string }
  | { kind: "module"; name: string }
  | { kind: "code"; code: string }
  /** `unnamed`: read from stdin without a `-` (python3's sys.argv[0] is then ""). */
  | { kind: "stdin"; unnamed?: true }
  | { kind: "console" };

/** CPython's own options from the command line (src/cli/split-argv.ts reads them). */
export interface InterpreterOptions {
  /** As written, for the interpreter's command line before the boot script. */
  args: string[];
  /** `-i`: the console after the program. */
  inspect: boolean;
  /** `-x`: the script's first line is not part of the program. */
  skipFirstLine: boolean;
  /** `-V`, `--help-env`, `--help-xoptions`, `--help-all`: CPython answers and runs nothing. */
  query: boolean;
}

export const NO_INTERPRETER_OPTIONS: InterpreterOptions = { args: [], inspect: false, skipFirstLine: false, query: false };

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export function resolveTarget(spec: ProgramSpec): RunTarget {
  switch (spec.kind) {
    case "module":
      return { kind: "module", name: spec.name };
    case "code":
      return { kind: "code", code: spec.code };
    case "stdin":
      return spec.unnamed ? { kind: "stdin", unnamed: true } : { kind: "stdin" };
    case "console":
      return { kind: "console" };
    case "script":
      return resolveScript(spec.path);
  }
}

function resolveScript(file: string): RunTarget {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw new UsageError(`can't open file '${path.resolve(file)}': ${reason(error)}`);
  }
  if (stat.isDirectory()) {
    const main = ["__main__.py", "__main__.pyc"].find((name) => fs.existsSync(path.join(file, name)));
    if (!main) {
      throw new UsageError(`'${file}' is a folder without __main__.py: run a .py file inside it, or add __main__.py to run the folder`);
    }
    return { kind: "directory", path: file };
  }
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    throw new UsageError(`can't open file '${path.resolve(file)}': ${reason(error)}`);
  }
  try {
    const head = Buffer.alloc(4);
    const n = fs.readSync(fd, head, 0, 4, 0);
    if (n === 4 && head.equals(ZIP_MAGIC)) return { kind: "directory", path: file };
  } catch (error) {
    throw new UsageError(`can't read file '${path.resolve(file)}': ${reason(error)}`);
  } finally {
    fs.closeSync(fd);
  }
  return { kind: "file", path: file };
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return "No such file or directory";
    case "EACCES":
    case "EPERM":
      return "Permission denied (check the file's permissions)";
    case "EISDIR":
      return "Is a directory";
    default:
      return (error as Error).message;
  }
}

/** The program file for configuration discovery (SPEC §7), or null for -m, -c and stdin. */
export function scriptPathOf(target: RunTarget): string | null {
  return target.kind === "file" || target.kind === "directory" ? target.path : null;
}

/** The journal's `script` column: the path as given, "-m NAME", "-c" (never the code) or "-". */
export function scriptLabel(program: ProgramSpec): string {
  switch (program.kind) {
    case "script":
      return program.path;
    case "module":
      return `-m ${program.name}`;
    case "code":
      return "-c";
    case "stdin":
      return "-";
    case "console":
      return "(console)";
  }
}
