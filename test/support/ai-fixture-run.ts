// Helpers for the AI block end-to-end tests (test/ai-blocks-*.test.ts): running a fixture program
// from test/fixtures/ai with the built CLI against the loopback model (configured by AIYTHON_MODEL +
// OPENAI_BASE_URL, or an aiython.toml), reading the stable and live messages and the tool results
// of a recorded request, and asserting a run ended in an AIError traceback that prints no key.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { aiython, cleanEnv, ROOT } from "./run-cli.js";
import { startLoopbackModel, type RecordedRequest, type Responder, type ScriptedReply } from "./loopback-model.js";
import { tempProject } from "./temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "ai");
const KEY = "sk-test-key-NEVER-PRINTED-93ab";

export interface Run {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  requests: RecordedRequest[];
  seconds: number;
}

/** Copies a fixture into a fresh project folder (its own .git, optional aiython.toml) and runs it. */
export async function runFixture(
  fixture: string,
  model: { script?: ScriptedReply[]; responder?: Responder } | null,
  options: { toml?: string; env?: Record<string, string>; args?: string[] } = {},
): Promise<Run> {
  const dir = tempProject({ [fixture]: { copy: path.join(FIXTURES, fixture) } }, { prefix: "aiython-ai-" });
  const server = model ? await startLoopbackModel(model) : null;
  const env: Record<string, string> = { OPENAI_API_KEY: KEY, ...(options.env ?? {}) };
  if (options.toml !== undefined) {
    fs.writeFileSync(path.join(dir, "aiython.toml"), options.toml.replaceAll("$URL", server?.url ?? "http://127.0.0.1:9/v1"));
  } else if (server) {
    env.AIYTHON_MODEL ??= "test-model";
    env.OPENAI_BASE_URL ??= server.url;
  }
  const started = Date.now();
  try {
    const result = await aiython([fixture, ...(options.args ?? [])], { cwd: dir, env: cleanEnv(env) });
    return { ...result, requests: server?.requests.filter((r) => r.path.endsWith("/chat/completions")) ?? [], seconds: (Date.now() - started) / 1000 };
  } finally {
    await server?.close();
  }
}

export const stable = (request: RecordedRequest) => JSON.parse(request.body.messages[1].content);
export const live = (request: RecordedRequest) => JSON.parse(request.body.messages[2].content);
export const toolMessages = (request: RecordedRequest) =>
  request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => JSON.parse(m.content));

export function assertAIError(run: Run, pattern: RegExp) {
  assert.equal(run.exitCode, 1, `exit 1, stderr: ${run.stderr}`);
  assert.match(run.stderr, /Traceback \(most recent call last\):/);
  assert.match(run.stderr, pattern);
  assert.doesNotMatch(run.stderr, /aiython_bridge/);
  assert.ok(!run.stderr.includes(KEY) && !run.stdout.includes(KEY), "the API key is never printed");
}
