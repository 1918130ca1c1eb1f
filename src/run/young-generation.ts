// V8 grows its young generation as a run's blocks go by (to 16 MB a half, over thousands of
// blocks), and the host's resident set with it, though nothing is kept (bench/block-memory; SPEC
// §12: no memory grows with the number of blocks). After the first block its growth is stopped,
// and the old generation's limit is set 20% over what a full collection leaves (V8's default
// lets it reach several times that first: with the journal on, the host climbed from 71 MB at
// block 1,000 to 92 MB at 10,000 before its first full collection brought it back to 76 MB;
// held, it stays at 73 MB from block 3,000 on).
// Not on the command line: any V8 flag there makes V8 refuse Node's own code cache of its built-in
// modules, about 50 million instructions more on every start-up. Set at run time, a flag makes V8
// refuse the cached code of what loads afterwards, so it is set once the first block is done,
// when what blocks need has been loaded.

import { setFlagsFromString } from "node:v8";

let held = false;

/** Stops the young generation's growth and slows the old generation's (once per process). */
export function holdYoungGeneration(): void {
  if (held) return;
  held = true;
  setFlagsFromString("--semi-space-growth-factor=1 --heap-growing-percent=20");
}
