// End-to-end: the program's child processes are part of the run (SPEC §8). The built CLI runs
// fixture programs whose multiprocessing workers (fork, spawn, forkserver), ProcessPoolExecutor
// workers, os.fork() children and `subprocess` of sys.executable reach AI blocks and failing
// statements, against the loopback model; valid Python with processes runs as under python3.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { aiython, cleanEnv, python, ROOT } from "./support/run-cli.js";
import { finishCall, startLoopbackModel, toolCall, type RecordedRequest, type Responder } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "processes");
const FILES = fs.readdirSync(FIXTURES);

interface Run {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  requests: RecordedRequest[];
  seconds: number;
  dir: string;
  /** The run's TMPDIR: where its run folder was. */
  tmp: string;
}

const live = (request: RecordedRequest) => JSON.parse(request.body.messages[2].content);
const stable = (request: RecordedRequest) => JSON.parse(request.body.messages[1].content);

/** "one", "two", … for the related object `n` of the block's request. */
const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven"];
const spellOut: Responder = (request) => {
  const n = live(request).related_objects.find((o: { name: string }) => o.name === "n")?.value;
  return finishCall({ kind: "literal", value: NUMBERS[Number(n)] ?? "?" });
};

async function run(args: string[], responder: Responder | null): Promise<Run> {
  const dir = tempProject(Object.fromEntries(FILES.map((f) => [f, { copy: path.join(FIXTURES, f) }])), { prefix: "aiython-proc-" });
  const server = responder ? await startLoopbackModel({ responder }) : null;
  const tmp = tempProject({}, { git: false, prefix: "aiython-proc-tmp-" });
  const env = { TMPDIR: tmp, ...(server ? { OPENAI_API_KEY: "sk-test", AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url } : {}) };
  const started = Date.now();
  try {
    const result = await aiython(args, { cwd: dir, env: cleanEnv(env) });
    return { ...result, requests: server?.requests.filter((r) => r.path.endsWith("/chat/completions")) ?? [], seconds: (Date.now() - started) / 1000, dir, tmp };
  } finally {
    await server?.close();
  }
}

const runFolders = (run: Run) => fs.readdirSync(run.tmp).filter((name) => name.startsWith("aiython-run-"));

for (const method of ["fork", "spawn", "forkserver"]) {
  test(`multiprocessing ${method}: each worker's block goes to the model with the worker's values`, async () => {
    const result = await run(["pool_block.py", method], spellOut);
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "['1=one', '2=two', '3=three']\n");
    assert.equal(result.stderr, "");
    assert.equal(result.requests.length, 3, "one request per block, from the workers");
    assert.deepEqual(result.requests.map((r) => stable(r).statement).sort(), Array(3).fill("spell out the number n in English"));
    assert.deepEqual(runFolders(result), [], "the run folder is removed when the run ends");
  });

  test(`multiprocessing ${method}: a failing statement in a Process is recovered in the child`, async () => {
    const result = await run(["process_recovery.py", method], () => ({
      toolCalls: [toolCall("recover", { action: "complete", outcome: { kind: "literal", value: 7 } })],
    }));
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "parsed 70\nexit 0\n");
    assert.equal(stable(result.requests[0]).mode, "recovery");
    assert.equal(stable(result.requests[0]).location.function, "parse");
    assert.equal(result.requests.length, 1);
    assert.equal(live(result.requests[0]).recovery?.exception_type ?? stable(result.requests[0]).recovery?.exception_type, "ValueError");
  });
}

test("ProcessPoolExecutor workers, an os.fork() child and a subprocess of sys.executable each reach the model", async () => {
  const result = await run(["other_children.py"], spellOut);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "['4=four', '5=five']\nforked 6=six\nsubprocess 0 7=seven ['7']\n");
  assert.equal(result.requests.length, 4);
});

test("a worker killed while its request is in flight: the invocation is cancelled and the run ends at once", async () => {
  const result = await run(["killed_worker.py", "spawn"], () => ({ delayMs: 20_000, ...finishCall({ kind: "literal", value: "late" }) }));
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "worker exit -9\n");
  assert.equal(result.requests.length, 1);
  assert.ok(result.seconds < 10, `the run did not wait for the killed worker's answer (${result.seconds} s)`);
  assert.doesNotMatch(result.stderr, /internal error|Traceback/);
  assert.deepEqual(runFolders(result), []);
});

test("the run's secret is in no argv, no worker or grandchild environment, and not in ps output", async () => {
  const result = await run(["secret_probe.py"], () => finishCall({ kind: "literal", value: "yes" }));
  assert.equal(result.exitCode, 0, result.stderr);
  assert.equal(result.stdout, "True True [] yes\n", "a 64-digit secret, a run folder under TMPDIR, found nowhere");
  assert.deepEqual(runFolders(result), [], "the run folder is removed when the run ends");
});

test("valid Python with every start method and os.fork() runs as under python3, with and without a model", async () => {
  const dir = tempProject({ "plain_pool.py": { copy: path.join(FIXTURES, "plain_pool.py") } }, { prefix: "aiython-proc-" });
  const theirs = await python(["plain_pool.py"], { cwd: dir });
  assert.equal(theirs.exitCode, 0, theirs.stderr);
  const ours = await aiython(["plain_pool.py"], { cwd: dir });
  assert.deepEqual([ours.stdout, ours.stderr, ours.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
  const modelled = await run(["plain_pool.py"], () => finishCall({ kind: "none" }));
  assert.deepEqual([modelled.stdout, modelled.stderr, modelled.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
  assert.equal(modelled.requests.length, 0, "valid Python never calls a model");
});

test("--replay answers blocks in spawned workers from the journal, with no model request", async () => {
  const recorded = await run(["pool_block.py", "spawn"], spellOut);
  assert.equal(recorded.exitCode, 0, recorded.stderr);
  const witness = await startLoopbackModel({ responder: () => ({ status: 500 }) });
  try {
    const env = { OPENAI_API_KEY: "sk-test", AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: witness.url };
    const replayed = await aiython(["--replay", "pool_block.py", "spawn"], { cwd: recorded.dir, env: cleanEnv(env) });
    assert.equal(replayed.exitCode, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
    assert.equal(witness.requests.length, 0, "--replay contacted the model server");
  } finally {
    await witness.close();
  }
});

test("with no model configured, a subprocess of sys.executable on a project file is python3's own: a syntax error stays CPython's SyntaxError", async () => {
  const runner = "import subprocess, sys\nr = subprocess.run([sys.executable, '-X', 'utf8', 'broken.py'], capture_output=True)\nprint(r.returncode)\nprint(r.stderr.decode())\n";
  const dir = tempProject({ "main.py": runner, "broken.py": "total = sum(x for x in range(3), 1)\n(\n" }, { prefix: "aiython-proc-" });
  const theirs = await python(["main.py"], { cwd: dir });
  assert.match(theirs.stdout, /SyntaxError/);
  const ours = await aiython(["main.py"], { cwd: dir });
  assert.deepEqual([ours.stdout, ours.stderr, ours.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
});

test("with no model configured, multiprocessing's executable is python3's until the program uses the mailbox", async () => {
  const program =
    "import multiprocessing.spawn as s, os, sys\nprint(os.fsdecode(s.get_executable()) == sys.executable)\nfrom aiython import group\ngroup()\nprint(os.fsdecode(s.get_executable()) == sys.executable)\n";
  const dir = tempProject({ "main.py": program }, { prefix: "aiython-proc-" });
  const ours = await aiython(["main.py"], { cwd: dir });
  assert.equal(ours.exitCode, 0, ours.stderr);
  assert.equal(ours.stdout, "True\nFalse\n", "the launcher is named only once the mailbox may have spawned peers");
});

// A child run as `-m MODULE`, through shell=True or `sh -c "…"`, of this interpreter on a project
// file (issue 34, item 8).
const GREET = 'import sys\n\nn = int(sys.argv[1])\nword: str = spell out the number n in English\nprint(f"{n}={word}", sys.argv[1:])\n';
const CHILD_FORMS =
  "import subprocess, sys\n" +
  "for args in ([sys.executable, '-m', 'pkg.greet', '1'], [sys.executable, '-mgreet', '2'], f'{sys.executable} greet.py 3', ['sh', '-c', f\"'{sys.executable}' -u -m pkg.greet 4\"]):\n" +
  "    done = subprocess.run(args, capture_output=True, text=True, shell=isinstance(args, str))\n" +
  "    print(done.returncode, done.stdout + done.stderr, end='')\n";

test("a subprocess of sys.executable with -m, shell=True or sh -c on a project file reaches the model", async () => {
  const dir = tempProject({ "main.py": CHILD_FORMS, "greet.py": GREET, "pkg/__init__.py": "", "pkg/greet.py": GREET }, { prefix: "aiython-proc-" });
  const server = await startLoopbackModel({ responder: spellOut });
  try {
    const env = cleanEnv({ OPENAI_API_KEY: "sk-test", AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url });
    const result = await aiython(["main.py"], { cwd: dir, env });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "0 1=one ['1']\n0 2=two ['2']\n0 3=three ['3']\n0 4=four ['4']\n");
    assert.equal(server.requests.filter((r) => r.path.endsWith("/chat/completions")).length, 4);
  } finally {
    await server.close();
  }
});

test("valid Python children run with -m, shell=True and sh -c see what they see under python3, with and without a model", async () => {
  const show =
    "import os, sys\nprint(os.path.relpath(sys.argv[0]), sys.argv[1:], sys.orig_argv[1:], sys.path[0] == os.getcwd(), __spec__ and __spec__.name, __name__, os.path.relpath(__file__))\n";
  const forms = CHILD_FORMS.replaceAll("greet", "show").replace("f'{sys.executable} show.py 3'", "f'{sys.executable} -X utf8 show.py 3; echo done'");
  const dir = tempProject({ "main.py": forms, "show.py": show, "pkg/__init__.py": "", "pkg/show.py": show }, { prefix: "aiython-proc-" });
  const theirs = await python(["main.py"], { cwd: dir });
  assert.equal(theirs.exitCode, 0, theirs.stderr);
  assert.match(theirs.stdout, /pkg\/show\.py \['1'\] \['-m', 'pkg\.show', '1'\] True pkg\.show __main__/);
  const plain = await aiython(["main.py"], { cwd: dir });
  assert.deepEqual([plain.stdout, plain.stderr, plain.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
  const server = await startLoopbackModel({ responder: spellOut });
  try {
    const env = cleanEnv({ OPENAI_API_KEY: "sk-test", AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: server.url });
    const configured = await aiython(["main.py"], { cwd: dir, env });
    assert.deepEqual([configured.stdout, configured.stderr, configured.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});
