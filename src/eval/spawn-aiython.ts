// The one place `aiython eval` starts processes: each run of a program is an ordinary `aiython`
// run in its own process (its own stdout, exit status, signals and budget, journaled as any run),
// started from this installation's bin/aiython with the running Node; a check file is plain Python,
// run by the interpreter a run would choose (AIYTHON_PYTHON, the active virtual environment,
// python3), never through aiython: no model may rescue a failing check.

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Finished {
  stdout: string;
  stderr: string;
  /** The exit status, or 128+n for a run ended by signal n. */
  status: number;
  seconds: number;
}

let cli: string | undefined;

/** bin/aiython of this installation, above both src/ and dist/. */
function aiythonBin(): string {
  if (cli) return cli;
  const from = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "bin", "aiython");
    if (fs.existsSync(candidate)) return (cli = candidate);
  }
  return (cli = path.resolve(from, "..", "bin", "aiython"));
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  input?: string;
}

/** Runs `aiython ARGS` in `cwd` with `env`, `input` on its stdin; resolves when it has ended. */
export function runAiython(args: readonly string[], options: SpawnOptions): Promise<Finished> {
  return finished(process.execPath, [aiythonBin(), ...args], options);
}

/** Runs a Python file with the interpreter a run would choose (SPEC §2, without --python). */
export function runPython(file: string, options: SpawnOptions): Promise<Finished> {
  const { env } = options;
  const python = env.AIYTHON_PYTHON || (env.VIRTUAL_ENV ? path.join(env.VIRTUAL_ENV, "bin", "python") : "python3");
  return finished(python, [file], options);
}

function finished(command: string, args: readonly string[], options: SpawnOptions): Promise<Finished> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.on("error", () => undefined); // a program that never reads its stdin
    child.stdin.end(options.input ?? "");
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const status = code ?? 128 + (signal ? (SIGNALS[signal] ?? 1) : 1);
      resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), status, seconds: (performance.now() - started) / 1000 });
    });
  });
}
