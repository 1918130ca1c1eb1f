// One parse chunk of analyze.ts step 1, indexed: the chunk's text (whole windows of top-level
// statements) parsed once, and each window's statements indexed from that tree where tree-sitter
// saw clean Python there (null elsewhere: analyze.ts parses such a window alone if its index is
// ever needed). The tree is dropped when this returns. Shared by the main thread and the index
// worker (index-worker.ts), so a chunk is indexed the same way on either.

import { indexRange, type IndexPart } from "./program-index.js";
import { parsePython } from "./syntax-tree.js";
import { PARSE_CHUNK, type Window } from "./windows.js";

/** A window of a chunk and its index (null where the chunk's tree has errors in it). */
export interface WindowPart {
  start: number;
  part: IndexPart | null;
}

/**
 * Indexes the windows of one chunk. `text` is the chunk's text, which starts at `base` in the
 * source; `each` is called after every window (analyze.ts yields there).
 */
export async function indexChunk(text: string, base: number, windows: readonly Window[], each: () => Promise<void> | void): Promise<WindowPart[]> {
  const tree = parsePython(text);
  const clean = !tree.rootNode.hasError;
  const topNodes = clean ? undefined : tree.rootNode.children; // one call for all, not one node each
  const map = (o: number): number => base + o;
  const cursor = tree.walk();
  const out: WindowPart[] = [];
  for (const window of windows) {
    const range = { start: window.start - base, end: window.end - base, clean, topNodes };
    out.push({ start: window.start, part: indexRange(cursor, text, map, range) });
    await each();
  }
  return out;
}

/** Consecutive windows, grouped into chunks of at least PARSE_CHUNK characters (except the last). */
export function parseChunks(windows: Window[]): Window[][] {
  const chunks: Window[][] = [];
  let current: Window[] = [];
  for (const window of windows) {
    current.push(window);
    if (window.end - current[0].start >= PARSE_CHUNK) {
      chunks.push(current);
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The text of a chunk of consecutive windows. */
export function chunkText(source: string, chunk: Window[]): string {
  return source.slice(chunk[0].start, chunk[chunk.length - 1].end);
}
