// A large model answer's garbage, collected between the steps that read it (SPEC §12: a 50 MB
// answer within about twice its size in the host's memory). Reading an answer makes, one after
// the other, the body's bytes, its text, the tool call's arguments text and their value, each as
// large as the answer, and each dropped once the next is made. V8 frees objects that large only
// at a full collection, which one answer of tens of megabytes does not set off in time: they piled
// up, five to nine times the body (bench/large-answer). From LARGE_GARBAGE_CHARS on, the host asks
// for a full collection between those steps (milliseconds on the host's heap, a few times per such
// answer; none for smaller ones). Asking needs V8's gc function, exposed at the first such answer,
// not at start-up: a V8 flag set before then would cost every run Node's code cache
// (run/young-generation.ts).

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Characters (or bytes) of a text from which its garbage is collected before the next step. */
export const LARGE_GARBAGE_CHARS = 8 * 1024 * 1024;

let collect: (() => void) | null = null;

/** A full collection when `size` (the text or body just dropped) is large; nothing otherwise. */
export function collectLargeGarbage(size: number): void {
  if (size < LARGE_GARBAGE_CHARS) return;
  if (collect === null) {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
}
