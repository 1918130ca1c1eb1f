// The main thread's side of the index worker (index-worker.ts): on a source of several parse
// chunks, some are parsed and indexed on a worker thread while the main thread does the rest
// (analyze.ts hands them out), so that tree-sitter runs on two cores (SPEC §12: a 1 MB file
// plans in 1.0 s) where a third is left for the bridge (usesIndexWorker). The worker's parts are
// the ones the main thread would have made (the same code, chunk-index.ts); if the worker cannot
// start or fails, its chunks are indexed on the main thread instead.

import { Worker } from "node:worker_threads";
import { chunkText, indexChunk, parseChunks, type WindowPart } from "./chunk-index.js";
import type { IndexPart } from "./program-index.js";
import { treeReleaser } from "./syntax-tree.js";
import { PARSE_CHUNK, type Window } from "./windows.js";

/**
 * Sources of at least this many characters (two parse chunks, windows.ts) share their chunks with
 * a worker thread; below it the worker's start would cost more than it saves.
 */
export const WORKER_MIN_LENGTH = 2 * PARSE_CHUNK;

/**
 * Sources above this many characters are indexed on the main thread alone: with the worker the
 * host's peak grows with the source (about 14 MB per MB measured), and at that size memory is the
 * budget that binds (SPEC §12: a 4 MB file under 300 MB).
 */
export const WORKER_MAX_LENGTH = 2 * 1024 * 1024;

/**
 * Whether a source of this length shares its chunks with a worker thread, on a machine of `cores`.
 * Only with three cores or more: while the host indexes, the bridge's interpreter compiles the
 * windows (about 400 ms at 1 MB), so on two cores the worker takes the bridge's core, and
 * `--explain` of a 1 MB file measured 1.59 s with it against 1.34 s without (built CLI, 6 pairs).
 */
export function usesIndexWorker(length: number, cores: number): boolean {
  return cores >= 3 && length >= WORKER_MIN_LENGTH && length <= WORKER_MAX_LENGTH;
}

export interface ChunkJob {
  base: number;
  text: string;
  windows: Window[];
}

export interface ChunkResult {
  base: number;
  parts: WindowPart[];
}

export interface IndexWorker {
  /** Hands the worker chunks to index (it sends each back as it is done, in order). */
  submit(jobs: ChunkJob[]): void;
  /** The parts of the chunk starting at `base`, or null when the worker failed before sending them. */
  result(base: number): Promise<WindowPart[] | null>;
  /** Ends the worker (it holds no state worth keeping); the caller always does, even after an error. */
  close(): void;
}

// Built, this module sits in a chunk in dist/ next to dist/index-worker.js. Run from the sources
// (tests, benchmarks under tsx), it sits next to index-worker.ts, which a worker thread can load
// only once it has registered tsx itself (Node 20 does not pass `--import` hooks on to workers).
const FROM_SOURCES = import.meta.url.endsWith(".ts");

function spawnWorker(): Worker {
  const options = { stdout: true, stderr: true };
  if (!FROM_SOURCES) return new Worker(new URL("./index-worker.js", import.meta.url), options);
  const entry = JSON.stringify(new URL("./index-worker.ts", import.meta.url).href);
  return new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${entry}); })`, { ...options, eval: true });
}

/** Starts the worker at once (it loads tree-sitter while the caller plans its chunks). */
export function startIndexWorker(): IndexWorker {
  const results = new Map<number, WindowPart[]>();
  const waiting = new Map<number, (parts: WindowPart[] | null) => void>();
  let failed = false;
  const fail = (): void => {
    failed = true;
    for (const wake of waiting.values()) wake(null);
    waiting.clear();
  };
  let worker: Worker | null = null;
  try {
    worker = spawnWorker();
    worker.on("message", (message: ChunkResult) => {
      results.set(message.base, message.parts);
      waiting.get(message.base)?.(message.parts);
      waiting.delete(message.base);
    });
    worker.on("error", fail);
    worker.on("exit", fail);
  } catch {
    failed = true;
  }
  return {
    submit(jobs) {
      if (!failed) worker?.postMessage(jobs);
    },
    result(base) {
      const done = results.get(base);
      if (done) return Promise.resolve(done);
      if (failed) return Promise.resolve(null);
      return new Promise((resolve) => waiting.set(base, resolve));
    },
    close() {
      void worker?.terminate();
    },
  };
}

/** A window's index from step 1 (its tree is not kept). */
export interface Parsed {
  window: Window;
  /** null until needed where the chunk's tree has errors in the window (then from a parse of the window alone). */
  part: IndexPart | null;
}

/**
 * Step 1's JS side (analyze.ts), while the oracle compiles the windows: the source parsed once,
 * in chunks of whole windows (a chunk starts a top-level statement, so it parses as it does in the file), and
 * each window's statements indexed from its chunk's tree where tree-sitter saw clean Python there
 * (elsewhere from a parse of the window alone, made only if that index is ever used: a window that
 * does not compile gets blocks and is parsed again as rewritten). Only the index is kept: a
 * chunk's tree is dropped once its windows are indexed, so a large file never holds a whole tree
 * (SPEC §12: 4 MB under 300 MB). On a large source (usesIndexWorker), chunks are also indexed
 * meanwhile on the worker thread, which analyze.ts starts before the windows are planned.
 * `each` runs after every window indexed on this thread (a yield: the search's rounds interleave).
 */
export async function indexWindows(source: string, windows: Window[], worker: IndexWorker | null, each: () => Promise<void>): Promise<Map<number, Parsed>> {
  const parsed = new Map<number, Parsed>();
  const todo = parseChunks(windows);
  const keep = (chunk: Window[], parts: WindowPart[]): void => {
    for (const [i, window] of chunk.entries()) parsed.set(window.start, { window, part: parts[i].part });
  };
  const here = (chunk: Window[]): Promise<WindowPart[]> => indexChunk(chunkText(source, chunk), chunk[0].start, chunk, each);
  // The worker takes chunks from the end, one at a time, and the next as it sends one back; the
  // main thread takes them from the start: however fast each side turns out, both end together.
  const remote: Promise<void>[] = [];
  const feed = (): void => {
    const chunk = worker && todo.length > 0 ? todo.pop() : undefined;
    if (!worker || !chunk) return;
    worker.submit([{ base: chunk[0].start, text: chunkText(source, chunk), windows: chunk }]);
    remote.push(
      worker.result(chunk[0].start).then(async (parts) => {
        if (parts) feed();
        keep(chunk, parts ?? (await here(chunk))); // a failed worker leaves its chunk to this thread
      }),
    );
  };
  feed();
  const release = treeReleaser(source.length);
  for (let chunk = todo.shift(); chunk; chunk = todo.shift()) {
    keep(chunk, await here(chunk));
    release(); // the chunk's tree, dropped
  }
  while (remote.length > 0) await remote.shift();
  return parsed;
}
