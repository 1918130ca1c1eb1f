// The index worker's entry (a worker thread, built as dist/index-worker.js): indexes the parse
// chunks analyze.ts hands it (chunk-index.ts), so that on a large file tree-sitter parses on both
// cores while the main thread parses and indexes the other chunks (SPEC §12). Started before its
// chunks are known, it loads tree-sitter first; then, for each message in (chunks' texts), one
// message back per chunk, in order.

import { parentPort } from "node:worker_threads";
import { indexChunk } from "./chunk-index.js";
import type { ChunkJob, ChunkResult } from "./parallel-index.js";
import { parsePython } from "./syntax-tree.js";

const port = parentPort;
parsePython(""); // loads tree-sitter while the main thread plans the chunks
port?.on("message", async (jobs: ChunkJob[]) => {
  for (const job of jobs) {
    const parts = await indexChunk(job.text, job.base, job.windows, () => {});
    port.postMessage({ base: job.base, parts } satisfies ChunkResult);
  }
});
