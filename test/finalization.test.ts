// Every way a run ends finalizes the interpreter as python3 does (SPEC §2): a zip and a gzip file
// left open come out whole, a file never flushed holds its text, and __del__, atexit and
// weakref.finalize run. test/fixtures/finalization/finalize.py ends the way its argument names;
// each way runs under python3, aiython unconfigured, aiython configured with a model at a dead
// address (all three byte for byte, files included), and aiython with a model that answers every
// pause by re-raising (the same files, stdout and status; stderr gains the model's note).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { CLI, cleanEnv, PYTHON, ROOT } from "./support/run-cli.js";
import { startLoopbackModel, toolCall } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURE = "finalize.py";
const OUTPUTS = ["out.zip", "out.gz", "unflushed.txt"];
const WAYS = ["end", "exit", "exit_text", "main", "raise", "interrupt", "sigint"];

interface Ended {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  files: Record<string, string>;
}

function project(): string {
  return tempProject({ [FIXTURE]: { copy: path.join(ROOT, "test", "fixtures", "finalization", FIXTURE) } }, { prefix: "aiython-finalize-" });
}

/** One run in `dir` (its outputs removed first); the files it left, as hex. */
async function run(command: string[], dir: string, way: string, env: NodeJS.ProcessEnv): Promise<Ended> {
  for (const name of OUTPUTS) fs.rmSync(path.join(dir, name), { force: true });
  const [file, ...args] = command;
  const result = await execa(file, [...args, FIXTURE, way], { cwd: dir, env, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 60_000 });
  const files = Object.fromEntries(OUTPUTS.map((name) => [name, fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name)).toString("hex") : "missing"]));
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode, files };
}

const DEAD_MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };

for (const way of WAYS) {
  test(`ending by ${way}: files, __del__, atexit and weakref.finalize as under python3, configured or not`, async () => {
    const dir = project();
    const theirs = await run([PYTHON], dir, way, cleanEnv());
    assert.match(theirs.stdout, /__del__ ran\n/);
    assert.match(theirs.stdout, /atexit ran\n/);
    assert.match(theirs.stdout, /weakref\.finalize ran\n/);
    assert.ok(!Object.values(theirs.files).includes("missing"));
    for (const [mode, env] of [
      ["unconfigured", cleanEnv()],
      ["configured", cleanEnv(DEAD_MODEL)],
    ] as const) {
      const ours = await run([CLI, "--no-journal"], dir, way, env);
      assert.deepEqual(ours.files, theirs.files, `${mode}: the files left`);
      assert.equal(ours.stdout, theirs.stdout, `${mode}: stdout`);
      assert.equal(ours.stderr, theirs.stderr, `${mode}: stderr`);
      assert.equal(ours.exitCode, theirs.exitCode, `${mode}: exit status`);
    }
  });
}

test("with a model that re-raises every pause, an uncaught error still leaves whole files and runs every hook", async () => {
  const server = await startLoopbackModel({ responder: () => ({ toolCalls: [toolCall("recover", { action: "reraise", explanation: "cannot be repaired" })] }) });
  try {
    const dir = project();
    for (const way of ["raise", "exit", "main"]) {
      const theirs = await run([PYTHON], dir, way, cleanEnv());
      const ours = await run([CLI, "--no-journal"], dir, way, cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "sk-test" }));
      assert.deepEqual(ours.files, theirs.files, `${way}: the files left`);
      assert.equal(ours.stdout, theirs.stdout, `${way}: stdout`);
      assert.equal(ours.exitCode, theirs.exitCode, `${way}: exit status`);
    }
    assert.ok(
      server.requests.some((r) => r.path.endsWith("/chat/completions")),
      "the uncaught error paused and asked the model",
    );
  } finally {
    await server.close();
  }
});
