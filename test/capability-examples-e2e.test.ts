// The capability examples as a new user tries them (SPEC §10, issue: examples runnable with
// `npm run demo`): the demo starts the stand-in model and loopback fakes of the endpoints, and
// the built CLI runs examples/notes_search.py (an answer with its sources) and
// examples/transcribe.py (the call's words, then a spoken file under .aiython/artifacts).

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT } from "./support/run-cli.js";
import { runDemo } from "./support/run-demo.js";

const demo = (script: string) => runDemo(path.join(ROOT, "examples", script));

test("npm run demo -- examples/notes_search.py prints an answer and its sources", async () => {
  const ran = await demo("notes_search.py");
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, "Green tea steeps for two to three minutes in water at about 80 °C; hotter water makes it bitter.\nsources: notes/tea.md, notes/bread.md\n");
  assert.match(ran.stderr, /demo: \d+ model requests, 3 capability requests\n$/);
});

test("npm run demo -- examples/transcribe.py prints the transcript and the spoken file", async () => {
  const ran = await demo("transcribe.py");
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(
    ran.stdout,
    /^transcript: Hi, this is Dana from accounts\. The March invoice was charged twice; please refund one of the payments\.\nspoken: \.aiython\/artifacts\/speech-transcript-[0-9a-f]{8}\.wav\n$/,
  );
});
