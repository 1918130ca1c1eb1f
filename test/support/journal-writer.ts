// A child process for the journal concurrency test: opens the journal of PROJECT and writes COUNT
// runs, each with two invocations and an end, as a real run would (one short write at a time).
// Both writers wait for the same wall-clock moment START (ms since epoch) before opening, so they
// open the new journal and write to it at the same time.
//   node --import tsx test/support/journal-writer.ts PROJECT TAG COUNT START

import { openJournal } from "../../src/journal/index.js";
import { counters, END, runStart } from "./journal-helpers.js";

const [root, tag, count, start] = process.argv.slice(2);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(start) - Date.now())));
const journal = await openJournal({ projectRoot: root, create: true });
for (let i = 0; i < Number(count); i += 1) {
  const id = journal.runs.start(runStart({ script: `writer-${tag}.py`, pid: process.pid }));
  for (const line of [1, 2]) {
    journal.runs.addInvocation(id, {
      invocation: `inv-${line}`,
      file: `writer-${tag}.py`,
      line,
      mode: "syntax",
      status: "finished",
      action: null,
      missingCapability: null,
      counters: counters(),
      endedAt: new Date(),
    });
  }
  journal.runs.end(id, END);
}
journal.close();
