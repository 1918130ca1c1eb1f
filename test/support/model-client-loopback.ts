// Helpers for the model client tests (test/model-client-*.test.ts): a chat request with two tools,
// loopback servers closed after the file's tests, a route to one of them, a sleep that records its
// waits, a deadline, catching the ModelCallError a call fails with, and asserting that an error
// names no secret.

import { after } from "node:test";
import assert from "node:assert/strict";
import { ModelCallError } from "../../src/model/errors.js";
import type { ChatRoute } from "../../src/model/types.js";
import type { ModelRequest, ToolSpec } from "../../src/model-port.js";
import { LOOPBACK_SECRET, startLoopbackModel, type LoopbackModel, type ScriptedReply } from "./loopback-model.js";

export const API_KEY = "sk-test-ROUTEKEY-5b1e0c9d7a3f";

const finishTool: ToolSpec = {
  type: "function",
  function: {
    name: "finish",
    description: "End the block with its outcome.",
    parameters: { type: "object", properties: { outcome: { type: "object" } }, required: ["outcome"], additionalProperties: false },
  },
};
const evaluateTool: ToolSpec = {
  type: "function",
  function: {
    name: "evaluate",
    description: "Evaluate one expression in the frame.",
    parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"], additionalProperties: false },
  },
};

export const request: ModelRequest = {
  messages: [
    { role: "system", content: "You complete Python blocks." },
    { role: "user", content: '{"mode":"syntax","statement":"total = sum of prices in café ✓"}' },
  ],
  tools: [evaluateTool, finishTool],
  toolChoice: "required",
};

/** Loopback servers to close once the importing file's tests are done. */
export const servers: LoopbackModel[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

export async function loopback(script: ScriptedReply[]): Promise<LoopbackModel> {
  const server = await startLoopbackModel({ script });
  servers.push(server);
  return server;
}

export function routeFor(server: { url: string }, overrides: Partial<ChatRoute> = {}): ChatRoute {
  return { id: "loopback/test-model", model: "test-model", apiBase: server.url, apiKey: API_KEY, apiKeyEnv: "LOOPBACK_API_KEY", ...overrides };
}

/** A sleep that records the waits and returns at once. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

export function soon(ms = 30_000): { deadline: number } {
  return { deadline: Date.now() + ms };
}

export async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ModelCallError, `expected a ModelCallError, got ${String(err)}`);
    assert.equal(err.name, "ModelCallError");
    return err;
  }
  assert.fail("the call succeeded but a ModelCallError was expected");
}

export function assertNoSecrets(err: Error): void {
  for (const secret of [LOOPBACK_SECRET, API_KEY, "Bearer", "Incorrect API key provided"]) {
    assert.ok(!err.message.includes(secret), `message leaks ${secret}: ${err.message}`);
    assert.ok(!String(err.stack).includes(secret), `stack leaks ${secret}`);
  }
}
