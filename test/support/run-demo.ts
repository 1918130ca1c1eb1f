// `npm run demo -- ARGS` as a test runs it: the demo's stand-in model and aiython's built CLI, from
// the repository's root, with a defined colour environment and the output kept as written.

import path from "node:path";
import { execa } from "execa";
import { cleanEnv, ROOT } from "./run-cli.js";

export async function runDemo(...args: string[]) {
  const ran = await execa("node", ["--import", "tsx", path.join(ROOT, "examples", "demo", "run-demo.ts"), ...args], {
    cwd: ROOT,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: 60_000,
  });
  return { stdout: String(ran.stdout), stderr: String(ran.stderr), exitCode: ran.exitCode };
}
