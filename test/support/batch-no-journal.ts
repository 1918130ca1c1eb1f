// A batch offload's journal that keeps nothing and finds nothing (src/batch/offload.ts's
// BatchJournal, as a run without a journal has it): for tests and benches that drive a
// BatchOffload directly.

import type { BatchJournal } from "../../src/batch/offload.js";

export const NO_JOURNAL: BatchJournal = {
  add: async () => null,
  uploaded: async () => undefined,
  submitted: async () => undefined,
  ended: () => undefined,
  carrying: async () => null,
  runId: async () => null,
};
