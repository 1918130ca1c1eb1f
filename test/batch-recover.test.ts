// A batch a run was killed submitting (SPEC §14): the Batch API client finds a provider's batch by
// its metadata token across GET /batches pages, and recovery either finds it, creates it again
// from the uploaded file under the same token, or gives it up (marked failed) so its requests go
// anew. Against the loopback Batch API.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { BatchApi } from "../src/batch/batch-api.js";
import { requestLine } from "../src/batch/batch-lines.js";
import { batchMetadata, recoverBatch, TOKEN_KEY } from "../src/batch/recover.js";
import type { CarryingBatch } from "../src/journal/index.js";
import { echoFinishResponder } from "./support/echo-finish.js";
import { startLoopbackBatch } from "./support/loopback-batch.js";

async function uploaded(api: BatchApi): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aiython-recover-")), "in.jsonl");
  fs.writeFileSync(file, `${requestLine("req-1", JSON.stringify({ model: "m", messages: [] }))}\n`);
  return api.upload(file, "in.jsonl");
}

function journalSpy() {
  const writes: string[] = [];
  return {
    writes,
    submitted: async (row: number, id: string) => void writes.push(`submitted ${row} ${id}`),
    ended: (row: number, ok: boolean) => void writes.push(`ended ${row} ${ok}`),
  };
}

const carrying = (over: Partial<CarryingBatch>): CarryingBatch => ({
  id: 9,
  runId: 3,
  number: 2,
  kind: "api",
  route: "r",
  place: "",
  providerId: null,
  status: "submitting",
  customId: "req-1",
  token: "tok-x",
  fileId: null,
  ...over,
});

test("find reads GET /batches page after page for the metadata token", async () => {
  const server = await startLoopbackBatch({ responder: echoFinishResponder() });
  try {
    const api = new BatchApi({ id: "r", model: "m", apiBase: server.url, apiKey: null, apiKeyEnv: null });
    const fileId = await uploaded(api);
    const ids: string[] = [];
    for (let i = 0; i < 130; i++) ids.push(await api.create(fileId, batchMetadata(1, i + 1, `tok-${i}`)));
    assert.equal(await api.find(TOKEN_KEY, "tok-0"), ids[0], "the oldest batch is on the second page");
    assert.equal(await api.find(TOKEN_KEY, "tok-129"), ids[129]);
    assert.equal(await api.find(TOKEN_KEY, "tok-none"), null);
    const lists = server.requests.filter((r) => r.method === "GET" && r.path === "/v1/batches");
    assert.equal(lists.length, 2 + 1 + 2, "two pages, one, then two to know it is nowhere");
  } finally {
    await server.close();
  }
});

test("recovery finds the batch, else creates it from the uploaded file under its token, else gives it up", async () => {
  const server = await startLoopbackBatch({ responder: echoFinishResponder() });
  try {
    const api = new BatchApi({ id: "r", model: "m", apiBase: server.url, apiKey: null, apiKeyEnv: null });
    const fileId = await uploaded(api);
    const existing = await api.create(fileId, batchMetadata(3, 2, "tok-x"));

    const found = journalSpy();
    assert.deepEqual(await recoverBatch(carrying({ fileId }), api, found), { providerId: existing, created: false });
    assert.deepEqual(found.writes, [`submitted 9 ${existing}`]);
    assert.equal(server.batches.length, 1);

    const made = journalSpy();
    const again = await recoverBatch(carrying({ token: "tok-y", fileId }), api, made);
    assert.deepEqual(again, { providerId: server.batches[1].id, created: true });
    assert.deepEqual(server.batches[1].metadata, { aiython_run: "3", aiython_batch: "2", aiython_token: "tok-y" });
    assert.equal(server.batches[1].input_file_id, fileId);

    const lost = journalSpy();
    assert.equal(await recoverBatch(carrying({ token: "tok-z" }), api, lost), null, "no file id: nothing to create it from");
    assert.equal(await recoverBatch(carrying({ token: "tok-z", fileId: "file-gone" }), api, lost), null, "the file is gone");
    assert.deepEqual(lost.writes, ["ended 9 false", "ended 9 false"]);
    assert.equal(server.batches.length, 2);
  } finally {
    await server.close();
  }
});
