// `--batch=dir:PATH` (SPEC §14), for engines without a batch endpoint (`vllm run-batch`, a local
// GPU job): the requests go to PATH/requests-RUN-N.jsonl in the Batch API's format, the run says
// how to process the file and how to go on, and ends (exit 76). `aiython resume` reads
// PATH/results-RUN-N.jsonl, which such an engine writes in OpenAI's batch output format.

import fs from "node:fs";
import path from "node:path";
import type { LineResult } from "./batch-lines.js";
import { readResultFile } from "./result-stream.js";

export function requestsFile(dir: string, runId: number, number: number): string {
  return path.join(dir, `requests-${runId}-${number}.jsonl`);
}

/** Where the results of a requests file are expected. */
export function resultsFileOf(requests: string): string {
  return path.join(path.dirname(requests), path.basename(requests).replace(/^requests-/, "results-"));
}

/** Moves a spooled batch to its requests file (the folder made if needed); a message naming the problem when it cannot. */
export function moveRequests(spool: string, file: string): string | null {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.renameSync(spool, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
      fs.copyFileSync(spool, file);
      fs.rmSync(spool, { force: true });
    }
    return null;
  } catch (error) {
    return `--batch=dir: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pick a folder this user can write`;
  }
}

/** The answers in the results file of `requests` (read a megabyte at a time), or null when it is not there (yet). */
export function readDirResults(requests: string): Map<string, LineResult> | null {
  try {
    return readResultFile(resultsFileOf(requests));
  } catch {
    return null;
  }
}

/** What the run says when it stops to wait (the CLI prefixes `aiython: `). */
export function waitMessage(requests: string, model: string, runId: number, count: number, shown: (file: string) => string): string {
  const results = resultsFileOf(requests);
  return (
    `${count} model request${count === 1 ? "" : "s"} written to ${shown(requests)}; waiting for batch results (exit 76). Process them, then go on:\n` +
    `  vllm run-batch -i ${shown(requests)} -o ${shown(results)} --model ${model}\n` +
    `  aiython resume ${runId}`
  );
}

/** What a resumed run says when the results it needs are not there yet. */
export function missingResultsMessage(requests: string, model: string, runId: number, shown: (file: string) => string): string {
  return (
    `the results of ${shown(requests)} are not there yet (${shown(resultsFileOf(requests))}); process the requests, then go on:\n` +
    `  vllm run-batch -i ${shown(requests)} -o ${shown(resultsFileOf(requests))} --model ${model}\n` +
    `  aiython resume ${runId}`
  );
}
