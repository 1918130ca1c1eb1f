// `npm run demo` (examples/demo/run-demo.ts): every example the README shows runs against the
// stand-in model with the output its header promises, aiython's options pass through (`npm run
// demo -- --stats X`), a script that does not exist is one line, and a block the stand-in does
// not know fails with a message that says what the stand-in is and what it knows.
// notes_search.py and transcribe.py (capability routes) are test/capability-examples-e2e.test.ts's.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { ROOT } from "./support/run-cli.js";
import { runDemo } from "./support/run-demo.js";
import { tempProject } from "./support/temp-project.js";

const demo = runDemo;

/** The `#   ` lines under "Expected output" in an example's header. */
function promised(example: string): string[] {
  const header = fs.readFileSync(path.join(ROOT, "examples", example), "utf8").split("\n");
  const intro = header.findIndex((line) => line.includes("Expected output"));
  const from = header.findIndex((line, i) => i > intro && line.startsWith("#   "));
  const lines: string[] = [];
  for (const line of header.slice(from)) {
    if (!line.startsWith("#   ")) break;
    lines.push(line.slice(4));
  }
  return lines;
}

for (const example of ["statement_block.py", "typed_results.py", "recovery.py"]) {
  test(`npm run demo -- examples/${example} prints what its header promises`, async () => {
    const ran = await demo(`examples/${example}`);
    assert.equal(ran.exitCode, 0, ran.stderr);
    const expected = promised(example);
    assert.ok(expected.length > 0);
    const notices = expected.filter((line) => line.startsWith("aiython: "));
    assert.equal(ran.stdout, `${expected.filter((line) => !line.startsWith("aiython: ")).join("\n")}\n`);
    for (const notice of notices) assert.ok(ran.stderr.includes(`${notice}\n`), `${notice} in ${ran.stderr}`);
  });
}

test("npm run demo: tickets.py (the default) and parallel.py", async () => {
  const tickets = await demo();
  assert.equal(tickets.exitCode, 0, tickets.stderr);
  assert.equal(tickets.stdout.split("\n")[0], promised("tickets.py")[0]);
  assert.match(tickets.stderr, /demo: 5 model requests\n$/);
  const parallel = await demo("examples/parallel.py");
  assert.equal(parallel.exitCode, 0, parallel.stderr);
  assert.equal(parallel.stdout, "billing 10, bug 10\n");
});

test("npm run demo -- --batch examples/batch_classify.py: the stand-in speaks the Batch API and every request goes in one batch", async () => {
  const ran = await demo("--batch", "examples/batch_classify.py");
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, "billing 100, bug 100\n");
  assert.match(ran.stderr, /demo: stand-in model at http:\/\/127\.0\.0\.1:\d+\/v1 \(with a Batch API\)\n/);
  assert.match(ran.stderr, /demo: 200 model requests in 1 batch, 0 live\n$/);
});

test("npm run demo -- --stats X: aiython's options go to aiython; the program's arguments to the program", async () => {
  const ran = await demo("--stats", "examples/tickets.py");
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.match(ran.stderr, /demo: bin\/aiython --stats examples\/tickets\.py\n/);
  assert.match(ran.stderr, /aiython stats: 5 AI invocations, 5 model calls/);
  const dir = tempProject({ "args.py": "import sys\nprint(sys.argv[1:])\n" });
  const withArgs = await demo(path.join(dir, "args.py"), "--stats", "x");
  assert.equal(withArgs.stdout, "['--stats', 'x']\n");
  assert.doesNotMatch(withArgs.stderr, /aiython stats/);
});

test("npm run demo -- missing.py is one line, not a stack trace", async () => {
  const ran = await demo("missing.py");
  assert.equal(ran.exitCode, 2);
  assert.equal(ran.stderr, "demo: no such script: missing.py (npm run demo -- [AIYTHON OPTIONS] [SCRIPT [ARGS...]])\n");
});

test("a block the stand-in does not know: the AIError says what the stand-in is, what it knows and what to do", async () => {
  const dir = tempProject({ "other.py": "poem = write a poem about the sea\n" });
  const ran = await demo(path.join(dir, "other.py"));
  assert.equal(ran.exitCode, 1);
  assert.match(
    ran.stderr,
    /AIError: the demo's stand-in model is not a model: it knows only the blocks of the README's examples \(tickets\.py, .*\) and `pick a number between A and B`, and this block is "write a poem about the sea"; configure a real model \(aiython setup\)\n/,
  );
  assert.match(ran.stderr, /demo: 1 model request\n$/);
});
