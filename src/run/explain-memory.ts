// `--explain` of a large file (SPEC §12: 16 MB within 1 GB, at most 20 MB per MB of source): what
// a step leaves behind (the scan of the windows, the compile batches, a checkpoint list's frames
// and JSON text) is garbage V8 collects only when its heap asks, which on a file of megabytes is
// after the next step has added as much again; so once a step of such a file is done, the heap is
// collected. V8's collector is reached by setting --expose-gc at run time (never on the command
// line: any V8 flag there makes V8 refuse Node's code cache of its built-in modules); a flag set
// at run time makes V8 refuse the cached code of what loads afterwards, so only for such a file.

import { createRequire } from "node:module";

/** Sources from this length are collected after each step. */
export const COLLECT_FROM = 4_000_000;

const require = createRequire(import.meta.url);
let collect: (() => void) | null = null;

/** A full collection, for a source of at least COLLECT_FROM characters; nothing otherwise. */
export function collectAfterStep(sourceLength: number): void {
  if (sourceLength < COLLECT_FROM) return;
  if (collect === null) {
    require("node:v8").setFlagsFromString("--expose-gc");
    collect = require("node:vm").runInNewContext("gc") as () => void;
  }
  collect();
}
