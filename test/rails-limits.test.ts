// End-to-end: the program's resource limits (SPEC §2, §9). `--time-limit` / `time_limit` end the
// run with exit 124 and a message naming the limit, time waiting for the model not counted;
// `--memory-limit` / `memory_limit` make an allocation past it a MemoryError in the program,
// exactly as python3 under the same RLIMIT_AS (prlimit) reports it.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { aiython, cleanEnv, PYTHON } from "./support/run-cli.js";
import { finishCall } from "./support/loopback-model.js";
import { runWithModel } from "./support/run-with-model.js";
import { tempProject } from "./support/temp-project.js";

const SPIN = "import time\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.01)\n";

test("--time-limit ends a program that runs too long: exit 124 and a message naming the limit", async () => {
  const dir = tempProject({ "main.py": SPIN });
  const started = Date.now();
  const run = await aiython(["--time-limit", "1", "main.py"], { cwd: dir });
  const seconds = (Date.now() - started) / 1000;
  assert.equal(run.exitCode, 124, run.stderr);
  assert.equal(run.stdout, "started\n");
  assert.equal(
    run.stderr,
    "aiython: the run reached its time limit of 1 s (--time-limit; time waiting for the model is not counted) and the program was ended; raise the limit to give it more time\n",
  );
  assert.ok(seconds >= 1 && seconds < 4, `ended after ${seconds} s`);
});

test("time_limit in aiython.toml does the same, and a program that ignores SIGTERM is killed after the grace period", async () => {
  const ignoring = `import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n${SPIN}`;
  const dir = tempProject({ "main.py": ignoring, "aiython.toml": "version = 3\ntime_limit = 0.5\n" });
  const run = await aiython(["main.py"], { cwd: dir, env: cleanEnv({ AIYTHON_KILL_GRACE_MS: "300" }) });
  assert.equal(run.exitCode, 124);
  assert.match(run.stderr, /time limit of 0\.5 s \(time_limit in aiython\.toml;/);
});

test("time waiting for the model is not counted; time after it is", async () => {
  const main = "answer = think about it for a while\nprint(answer, flush=True)\n";
  // The model takes longer than the whole limit; the rest of the run (start-up, planning) fits well inside it.
  const slow = { ...finishCall({ kind: "literal", value: "thought" }), delayMs: 5000 };
  const run = await runWithModel({ "main.py": main }, [slow], { args: ["--time-limit", "3"] });
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "thought\n");
  const after = await runWithModel({ "main.py": main + SPIN }, [slow], { args: ["--time-limit", "3"] });
  assert.equal(after.exitCode, 124, after.stderr);
  assert.equal(after.stdout, "thought\nstarted\n");
});

test("bad limits are usage errors", async () => {
  for (const [args, message] of [
    [["--time-limit", "0", "x.py"], /--time-limit needs a positive number of seconds, got "0"/],
    [["--time-limit", "soon", "x.py"], /--time-limit needs a positive number of seconds, got "soon"/],
    [["--memory-limit", "1.5", "x.py"], /--memory-limit needs a whole number of megabytes, at least 16, got "1\.5"/],
  ] as const) {
    const run = await aiython([...args]);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, message);
  }
});

const ALLOCATE = `
try:
    huge = bytearray(600 * 1024 * 1024)
except MemoryError:
    print("600 MB: MemoryError")
kept = bytearray(100 * 1024 * 1024)
print("100 MB:", len(kept) // (1024 * 1024))
del kept
again = bytearray(700 * 1024 * 1024)
`;

test("--memory-limit: past the limit the program gets MemoryError, as python3 does under the same RLIMIT_AS", async () => {
  const dir = tempProject({ "main.py": ALLOCATE });
  const ours = await aiython(["--memory-limit", "300", "main.py"], { cwd: dir });
  const theirs = await execa("prlimit", [`--as=${300 * 1024 * 1024}`, PYTHON, "main.py"], { cwd: dir, reject: false, stripFinalNewline: false, env: cleanEnv(), extendEnv: false });
  assert.equal(theirs.exitCode, 1, "python3 under prlimit fails the same way");
  assert.equal(ours.stdout, "600 MB: MemoryError\n100 MB: 100\n");
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.stderr, theirs.stderr);
  assert.equal(ours.exitCode, 1);
  const unlimited = await aiython(["main.py"], { cwd: dir });
  assert.equal(unlimited.exitCode, 0, "without a limit all of it fits");
});

test("memory_limit in aiython.toml, with a model configured: the program's MemoryError, not aiython's", async () => {
  const dir = tempProject({ "main.py": "data = bytearray(900 * 1024 * 1024)\n" });
  fs.writeFileSync(
    path.join(dir, "aiython.toml"),
    'version = 3\nmemory_limit = 200\nmodel = { model = "m", api_base = "http://127.0.0.1:9/v1" }\npermissions = ["execute_code"]\n',
  );
  const run = await aiython(["main.py"], { cwd: dir });
  assert.equal(run.exitCode, 1);
  assert.match(run.stderr, /data = bytearray\(900 \* 1024 \* 1024\)\n.*\nMemoryError\n$/s);
  assert.doesNotMatch(run.stderr, /internal error/);
});

const WORKERS = `import multiprocessing, os, signal, sys, time
def work(ignore_term):
    if ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(60)
if __name__ == "__main__":
    workers = []
    for method, ignore_term in (("spawn", False), ("fork", False), ("fork", True)):
        worker = multiprocessing.get_context(method).Process(target=work, args=(ignore_term,))
        worker.start()
        workers.append(worker)
    time.sleep(0.5)
    print(" ".join(str(w.pid) for w in workers), flush=True)
    for worker in workers:
        worker.join()
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}

test("--time-limit ends the program's worker processes too (spawn and fork, one ignoring SIGTERM): nothing holds the caller's pipes", async () => {
  const dir = tempProject({ "main.py": WORKERS });
  const started = Date.now();
  // stdout is a pipe the workers inherit: a worker left running would keep this call waiting.
  const run = await aiython(["--time-limit", "2", "main.py"], { cwd: dir, env: cleanEnv({ AIYTHON_KILL_GRACE_MS: "500" }), timeout: 30_000 });
  assert.equal(run.exitCode, 124, run.stderr);
  assert.ok(Date.now() - started < 20_000, "the run ended soon after its limit");
  const pids = run.stdout.trim().split(" ").map(Number);
  assert.equal(pids.length, 3, run.stdout);
  assert.deepEqual(
    pids.filter((pid) => alive(pid)),
    [],
    "no worker is left running",
  );
});
