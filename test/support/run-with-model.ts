// Runs the built CLI on a small project of its own against the loopback model (SPEC §5), for the
// end-to-end tests of one behaviour each: the files, the scripted replies, extra arguments and
// environment in; the result, the chat requests the model saw and the tool messages out.

import fs from "node:fs";
import path from "node:path";
import type { Options } from "execa";
import { aiython, cleanEnv, type Ran } from "./run-cli.js";
import { startLoopbackModel, type RecordedRequest, type Responder, type ScriptedReply } from "./loopback-model.js";
import { tempProject, type ProjectFiles } from "./temp-project.js";

export interface ModelRun extends Ran {
  dir: string;
  requests: RecordedRequest[];
  problems: string[];
}

export interface ModelRunOptions {
  /** aiython.toml text; `$URL` becomes the loopback's base URL. Without it: AIYTHON_MODEL + OPENAI_BASE_URL. */
  toml?: string;
  args?: string[];
  env?: Record<string, string>;
  program?: string;
  execa?: Options;
}

export async function runWithModel(files: ProjectFiles, model: ScriptedReply[] | Responder, options: ModelRunOptions = {}): Promise<ModelRun> {
  const dir = tempProject(files, { prefix: "aiython-rails-" });
  const server = await startLoopbackModel(Array.isArray(model) ? { script: model } : { responder: model });
  const env: Record<string, string> = { OPENAI_API_KEY: "sk-rails-test", ...(options.env ?? {}) };
  if (options.toml !== undefined) fs.writeFileSync(path.join(dir, "aiython.toml"), options.toml.replaceAll("$URL", server.url));
  else Object.assign(env, { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url });
  try {
    const result = await aiython([...(options.args ?? []), options.program ?? "main.py"], { cwd: dir, env: cleanEnv(env), ...options.execa });
    return { ...result, dir, requests: server.requests.filter((r) => r.path.endsWith("/chat/completions")), problems: server.problems };
  } finally {
    await server.close();
  }
}

/** The tool messages (parsed) of a request, in order. */
export function toolMessages(request: RecordedRequest): { status: string; error?: string; message?: string; result?: unknown }[] {
  return request.body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => JSON.parse(m.content));
}

/** The names of the tools a request offered. */
export function offeredTools(request: RecordedRequest): string[] {
  return (request.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
}
