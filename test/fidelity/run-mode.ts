// One run of one program in one mode: python3 itself, aiython without a model, or aiython with a
// model at a dead address (127.0.0.1:9 refuses connections, so recovery is on and any model
// request fails at once). The program runs in its restored project folder, in its own process
// group so that a timeout ends everything it started, with stdin on /dev/null unless its entry
// wires a slow pipe (pipe_driver.py).

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLI, cleanEnv } from "../support/run-cli.js";
import type { Interpreter } from "./interpreter.js";
import type { Program } from "./program.js";
import { leftBehind, restoreProject, type Project } from "./project.js";

const DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "pipe_driver.py");

export type ModeName = "python3" | "unconfigured" | "configured" | "python3 again";

export interface Mode {
  name: ModeName;
  runner: "python" | "aiython";
  env: Record<string, string>;
}

export const MODES: readonly Mode[] = [
  { name: "python3", runner: "python", env: {} },
  { name: "unconfigured", runner: "aiython", env: {} },
  { name: "configured", runner: "aiython", env: { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } },
];

/** --calibrate: python3 twice, to see what varies between two runs of python3 itself. */
export const CALIBRATION_MODES: readonly Mode[] = [MODES[0], { name: "python3 again", runner: "python", env: {} }];

export interface Run {
  stdout: string;
  stderr: string;
  /** "0", "1", … or "signal SIGSEGV". */
  exit: string;
  timedOut: boolean;
  /** Files and folders the run added to the project folder. */
  left: string[];
}

/**
 * The environment every mode shares: the harness's own, minus whatever would configure aiython,
 * a model, a virtualenv or Python itself (PYTHONUNBUFFERED, PYTHONDONTWRITEBYTECODE, … of the
 * shell running the harness), plus the entry's own variables.
 */
function environment(program: Program, mode: Mode): NodeJS.ProcessEnv {
  const env = cleanEnv();
  for (const key of Object.keys(env)) if (key.startsWith("PYTHON")) delete env[key];
  return { ...env, ...program.env, ...mode.env };
}

function commandLine(program: Program, mode: Mode, interp: Interpreter): string[] {
  const direct = mode.runner === "python" ? [interp.command, ...program.argv] : [CLI, ...(interp.explicit ? ["--python", interp.command] : []), ...program.argv];
  const pipe = program.pipe;
  if (!pipe) return direct;
  const wiring = pipe.kind === "slow-reader" ? ["read", `${pipe.chunk}`, `${pipe.pauseMs}`] : ["write", `${pipe.chunk}`, `${pipe.pauseMs}`, pipe.file];
  return [interp.command, DRIVER, ...wiring, "--", ...direct];
}

export async function runMode(program: Program, mode: Mode, project: Project, interp: Interpreter, timeoutMs: number): Promise<Run> {
  restoreProject(project);
  const [command, ...args] = commandLine(program, mode, interp);
  const child = spawn(command, args, { cwd: project.work, env: environment(program, mode), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  let timedOut = false;
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group is already gone.
      }
      // Something outside the group may still hold the pipes open: do not wait for it forever.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        resolve({ code: child.exitCode, signal: child.signalCode });
      }, 2000);
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  return {
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8"),
    exit: ended.signal ? `signal ${ended.signal}` : String(ended.code),
    timedOut,
    left: leftBehind(project),
  };
}
