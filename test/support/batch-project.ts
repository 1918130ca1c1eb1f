// Shared set-up for the end-to-end tests of batch offload (SPEC §14): a project holding the
// fixtures of test/fixtures/batch/, an aiython.toml on the loopback Batch API (kept across runs,
// so a test can count what each run submitted), the built CLI run in it, and its journal read.

import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import type { Options } from "execa";
import { finishCall, toolCall, type RecordedRequest, type Responder, type ScriptedReply } from "./loopback-model.js";
import { startLoopbackBatch, type LoopbackBatch, type LoopbackBatchOptions } from "./loopback-batch.js";
import { aiython, cleanEnv, ROOT, type Ran } from "./run-cli.js";
import { tempProject } from "./temp-project.js";
import { journalRows } from "./journal-rows.js";

export const BATCH_FIXTURES = path.join(ROOT, "test", "fixtures", "batch");
export const BATCH_KEY = "sk-batch-e2e-key";

export interface BatchProject {
  root: string;
  server: LoopbackBatch;
  run(args: string[], options?: Options): Promise<Ran>;
  query<T>(sql: string, ...params: unknown[]): T[];
  close(): Promise<void>;
}

/** `[batch]` keys and extra top-level lines of aiython.toml. */
export async function batchProject(options: Partial<LoopbackBatchOptions> = {}, batchToml = "window = 1\npoll = 0.05"): Promise<BatchProject> {
  const files = Object.fromEntries(fs.readdirSync(BATCH_FIXTURES).map((name) => [name, { copy: path.join(BATCH_FIXTURES, name) }]));
  const root = tempProject(files, { prefix: "aiython-batch-" });
  const server = await startLoopbackBatch({ responder: labelResponder, ...options });
  fs.writeFileSync(
    path.join(root, "aiython.toml"),
    `version = 3\nmodel = "loop"\napi_base = "${server.url}"\napi_key_env = "BATCH_KEY"\nprice = { input = 2.0, output = 8.0 }\n\n[batch]\n${batchToml}\n`,
  );
  return {
    root,
    server,
    run: (args, extra = {}) => aiython(args, { cwd: root, env: cleanEnv({ BATCH_KEY }), ...extra }),
    query: <T>(sql: string, ...params: unknown[]): T[] => journalRows<T>(root, sql, ...params),
    close: () => server.close(),
  };
}

const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

/**
 * Answers a block with a label made from its request (the same request gets the same label, live
 * or batched). A block about a ticket first asks for the ticket's value, then answers from it.
 */
export const labelResponder: Responder = (request: RecordedRequest): ScriptedReply => {
  const messages: { role: string; content: string }[] = request.body.messages;
  if (JSON.stringify(messages).includes("classify the ticket")) {
    const seen = messages.find((m) => m.role === "tool");
    if (!seen) return { toolCalls: [toolCall("get_binding", { name: "ticket", result_id: "t" })], usage };
    return { ...finishCall({ kind: "literal", value: seen.content.includes("printer") ? "hardware" : "software" }), usage };
  }
  const digest = createHash("sha256").update(messages[1].content).digest("hex").slice(0, 10);
  return { ...finishCall({ kind: "literal", value: `label-${digest}` }), usage };
};
