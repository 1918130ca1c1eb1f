// One round of bench/batch-output.ts, in a process of its own: a completed batch's output file
// read from the loopback Batch API into its answers by custom_id, and this process's resident set
// before and at its peak (getrusage's maxrss), and the heap the answers take once collected. `streamed` is the host's way (BatchApi.content, a
// node:http(s) stream split into lines by result-stream.ts); `whole` is the way before it, kept
// here only as the baseline: the body fetched whole with fetch's text(), then split at "\n".
//   node --expose-gc --import tsx bench/batch-output/read-round.ts whole|streamed URL FILE_ID

import { BatchApi } from "../../src/batch/batch-api.js";
import { readResults, type LineResult } from "../../src/batch/batch-lines.js";
import { readResultStream } from "../../src/batch/result-stream.js";

const [mode, url, fileId] = process.argv.slice(2);
const route = { id: "bench", model: "bench", apiBase: url, apiKey: "sk-bench", apiKeyEnv: null };

/** The baseline: the output file as one string (fetch's text()), then its lines. */
async function readWhole(into: Map<string, LineResult>): Promise<void> {
  const response = await fetch(`${url}/files/${encodeURIComponent(fileId)}/content`, {
    headers: { authorization: `Bearer ${route.apiKey}` },
    signal: AbortSignal.timeout(120_000),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  readResults(await response.text(), into);
}

async function main(): Promise<void> {
  const results = new Map<string, LineResult>();
  global.gc?.();
  const { rss: before, heapUsed: heapBefore } = process.memoryUsage();
  const started = performance.now();
  if (mode === "whole") await readWhole(results);
  else await readResultStream(new BatchApi(route).content(fileId), results);
  const ms = performance.now() - started;
  const peak = process.resourceUsage().maxRSS * 1024;
  const answered = [...results.values()].filter((r) => r.ok).length;
  global.gc?.();
  const held = process.memoryUsage().heapUsed - heapBefore; // the answers still held; the file is garbage now
  process.stdout.write(`${JSON.stringify({ beforeMb: before / 2 ** 20, peakMb: peak / 2 ** 20, heldMb: held / 2 ** 20, ms, answered })}\n`);
}

void main();
