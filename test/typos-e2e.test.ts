// A typo stays a SyntaxError (SPEC §4.3; README, "A typo stays a SyntaxError"), through the built
// CLI against python3. Without a model, a program CPython cannot compile does not run at all: its
// first line's effects never happen, stderr is python3's SyntaxError byte for byte, then one
// `aiython:` line counts the spans that are not Python and names `aiython setup`. With a model,
// a span that reads as mistyped Python (no two words in a row) is refused the same way, with
// CPython's error for that span, and no model is asked; natural language still runs as a block.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, python } from "./support/run-cli.js";
import { finishCall, startLoopbackModel } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const WRITES_FIRST = 'open("ran.txt", "w").write("ran")\n';

async function side(dir: string, args: string[], env = cleanEnv(), input?: string) {
  const ours = await aiython(args, { cwd: dir, env, ...(input === undefined ? {} : { input }) });
  const ranOurs = fs.existsSync(path.join(dir, "ran.txt"));
  fs.rmSync(path.join(dir, "ran.txt"), { force: true });
  const theirs = await python(args, { cwd: dir, env: cleanEnv(), ...(input === undefined ? {} : { input }) });
  fs.rmSync(path.join(dir, "ran.txt"), { force: true });
  return { ours, theirs, ranOurs };
}

test("no model: a typo is python3's SyntaxError, nothing runs, and one line says what is not Python", async () => {
  const dir = tempProject({ "typo.py": `${WRITES_FIRST}print("a")\nprnt("b"\nprint("c")\n` });
  const { ours, theirs, ranOurs } = await side(dir, ["typo.py"]);
  assert.equal(ranOurs, false, "the first line ran");
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.exitCode, 1);
  assert.equal(theirs.exitCode, 1);
  assert.match(theirs.stderr, /SyntaxError: '\(' was never closed\n$/);
  assert.equal(ours.stderr, `${theirs.stderr}aiython: typo.py: 1 span is not Python (line 3); fix it, or configure a model (aiython setup) to run it as an AI block\n`);
});

test("no model: natural language is refused the same way, counted, with -c and stdin too", async () => {
  const source = `${WRITES_FIRST}summary = summarize the tickets\nprint(summary)\ntell me a joke\n`;
  const dir = tempProject({ "notes.py": source });
  const file = await side(dir, ["notes.py"]);
  assert.equal(file.ranOurs, false);
  assert.equal(
    file.ours.stderr,
    `${file.theirs.stderr}aiython: notes.py: 2 spans are not Python (lines 2 and 4); fix them, or configure a model (aiython setup) to run them as AI blocks\n`,
  );
  const code = await side(dir, ["-c", source]);
  assert.equal(code.ranOurs, false);
  assert.equal(
    code.ours.stderr,
    `${code.theirs.stderr}aiython: <string>: 2 spans are not Python (lines 2 and 4); fix them, or configure a model (aiython setup) to run them as AI blocks\n`,
  );
  const stdin = await side(dir, ["-"], cleanEnv(), source);
  assert.equal(stdin.ranOurs, false);
  assert.ok(stdin.ours.stderr.startsWith(stdin.theirs.stderr), stdin.ours.stderr);
  assert.equal(stdin.ours.exitCode, 1);
});

test("with a model: a span that reads as mistyped Python is CPython's SyntaxError for it; no model is asked", async () => {
  const model = await startLoopbackModel({ responder: () => finishCall({ kind: "literal", value: "x" }) });
  try {
    const dir = tempProject({ "typo.py": `${WRITES_FIRST}summary = summarize the tickets\nif summary = "x":\n    print(summary)\n` });
    const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: model.url });
    const ours = await aiython(["--no-journal", "typo.py"], { cwd: dir, env });
    assert.equal(fs.existsSync(path.join(dir, "ran.txt")), false, "the first line ran");
    assert.equal(ours.exitCode, 1);
    assert.equal(ours.stdout, "");
    assert.equal(
      ours.stderr,
      `  File "${path.join(dir, "typo.py")}", line 3\n    if summary = "x":\n       ^^^^^^^^^^^^^\nSyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?\n` +
        "aiython: typo.py:3 reads as mistyped Python, not natural language, so it is not an AI block (no two words in a row)\n",
    );
    assert.equal(model.requests.length, 0);
    // Fixed, the natural language runs as a block.
    fs.writeFileSync(path.join(dir, "typo.py"), `${WRITES_FIRST}summary = summarize the tickets\nif summary == "x":\n    print(summary)\n`);
    const fixed = await aiython(["--no-journal", "typo.py"], { cwd: dir, env });
    assert.equal(fixed.exitCode, 0, fixed.stderr);
    assert.equal(fixed.stdout, "x\n");
  } finally {
    await model.close();
  }
});

test("with a model: an imported project module with a typo raises CPython's SyntaxError at the import", async () => {
  const model = await startLoopbackModel({ responder: () => finishCall({ kind: "literal", value: 1 }) });
  try {
    const dir = tempProject({ "main.py": "try:\n    import helper\nexcept SyntaxError as e:\n    print('refused', e.msg, e.lineno)\n", "helper.py": "x = 1\nprint 'helper'\n" });
    const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: model.url });
    const ours = await aiython(["--no-journal", "main.py"], { cwd: dir, env });
    const theirs = await python(["main.py"], { cwd: dir });
    assert.equal(ours.exitCode, 0, ours.stderr);
    assert.equal(ours.stdout, theirs.stdout);
    assert.match(ours.stdout, /^refused Missing parentheses in call to 'print'/);
    assert.equal(model.requests.length, 0);
  } finally {
    await model.close();
  }
});
