// Shared set-up for the end-to-end tests of --stats, --trace, --replay and the journal: a temporary
// project holding a copy of examples/tickets.py, the stand-in model on a loopback port, and the
// built CLI run in that project with AIYTHON_MODEL=stand-in and a recognisable fake API key.

import fs from "node:fs";
import path from "node:path";
import { startStandInModel } from "../../examples/demo/stand-in-model.js";
import type { LoopbackModel } from "./loopback-model.js";
import { aiython, cleanEnv, ROOT, type Ran } from "./run-cli.js";
import { tempProject } from "./journal-helpers.js";

/** Set as OPENAI_API_KEY; it must never appear in a journal file, a trace or stats. */
export const FAKE_KEY = "sk-e2e-FAKE-KEY-b7c1d9e3f5a2";

/** The tickets example's output with the stand-in model. */
export const TICKETS_STDOUT =
  "{'bug': ['The app crashes on login', 'Error 500 on save'], 'billing': ['I was charged twice', 'Refund please']}\n" + "2 billing tickets and 2 bug reports were routed.\n";

export function ticketsProject(): string {
  const root = tempProject({}, { prefix: "aiython-observe-" });
  fs.copyFileSync(path.join(ROOT, "examples", "tickets.py"), path.join(root, "tickets.py"));
  return root;
}

export function modelEnv(url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv({ AIYTHON_MODEL: "stand-in", OPENAI_BASE_URL: url, OPENAI_API_KEY: FAKE_KEY, ...extra });
}

export async function standIn(): Promise<LoopbackModel> {
  return startStandInModel();
}

/** Chat-completion requests the server received (its /v1/models listing excluded). */
export function chatRequests(model: LoopbackModel): number {
  return model.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
}

export async function runIn(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return aiython(args, { cwd: root, env });
}

/** The stderr lines that are aiython's own (`aiython …`), in order. */
export function aiythonLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("aiython"));
}
