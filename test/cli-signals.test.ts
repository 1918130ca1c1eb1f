// End-to-end: signals, crashes and pipes (SPEC §2, §4.1). The CLI is started in its own process
// group (with no terminal) so that "Ctrl-C" can be sent to the whole group, as a terminal does;
// Ctrl-C at a real terminal runs in tmux. Signals the shell
// left ignored (nohup, `trap ''`) stay ignored for the program, as under python3; a signal that
// arrives while a pause waits on the model (an AI block, a recovery consultation) ends the run
// as it would during time.sleep, and the journal records it.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import path from "node:path";
import { execa } from "execa";
import { CLI, PROGRAMS, PYTHON, aiython, cleanEnv, pidAlive } from "./support/run-cli.js";
import { startLoopbackModel, type LoopbackModel } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";
import { tmuxAvailable, tmuxPane } from "./support/tmux.js";

interface Started {
  pid: number;
  programPid: Promise<number>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string }>;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv = cleanEnv(), cwd = PROGRAMS): Started {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let resolvePid!: (pid: number) => void;
  const programPid = new Promise<number>((resolve) => (resolvePid = resolve));
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    const match = /pid (\d+)/.exec(stdout);
    if (match) resolvePid(Number(match[1]));
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const done = once(child, "close").then(([code, signal]) => ({ code, signal, stderr, stdout }));
  return { pid: child.pid!, programPid, done };
}

async function gone(pid: number, withinMs = 3000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !pidAlive(pid);
}

for (const who of ["aiython", "python3"] as const) {
  test(`Ctrl-C to the process group during time.sleep: KeyboardInterrupt, handlers run, death by SIGINT (${who})`, async () => {
    const run = who === "aiython" ? start(CLI, ["sleep_interrupt.py"]) : start(PYTHON, ["sleep_interrupt.py"]);
    const programPid = await run.programPid;
    await new Promise((r) => setTimeout(r, 150)); // let it reach time.sleep
    process.kill(-run.pid, "SIGINT");
    const result = await run.done;
    assert.equal(result.signal, "SIGINT"); // a shell reports 130
    assert.match(result.stderr, /finally ran/);
    assert.match(result.stderr, /Traceback \(most recent call last\):\n {2}File ".*sleep_interrupt.py", line 8, in <module>\n {4}time.sleep\(30\)\nKeyboardInterrupt\n/);
    assert.doesNotMatch(result.stderr, /aiython_bridge|<string>/);
    assert.ok(await gone(programPid), "the Python process is gone");
  });
}

test("Ctrl-C at any moment of start-up ends the run as by SIGINT (130), never as an interpreter that did not start", async () => {
  const dir = tempProject({ "sleeps.py": "import time\ntime.sleep(30)\n", "planned.py": "import time\ntime.sleep(30)\nsummary = summarize the tickets\n" });
  const configured = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  const cases: [string[], NodeJS.ProcessEnv][] = [
    [["sleeps.py"], cleanEnv()],
    [["--no-journal", "planned.py"], configured], // interrupted while the frontend plans it, too
  ];
  for (const [args, env] of cases) {
    for (let delay = 0; delay <= 300; delay += 30) {
      const run = start(CLI, args, env, dir);
      await new Promise((r) => setTimeout(r, delay));
      process.kill(-run.pid, "SIGINT");
      const result = await run.done;
      const ended = result.signal ?? result.code;
      assert.ok(ended === "SIGINT" || ended === 130, `${args.join(" ")} after ${delay} ms: ended ${ended}\n${result.stderr}`);
      assert.doesNotMatch(result.stderr, /did not start|internal error/, `${args.join(" ")} after ${delay} ms`);
    }
  }
});

test("Ctrl-C at a terminal interrupts the program once, with or without a model", { skip: !tmuxAvailable() && "needs tmux" }, async () => {
  const dir = tempProject({ "interrupt_once.py": { copy: path.join(PROGRAMS, "interrupt_once.py") } });
  for (const env of [cleanEnv(), cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" })]) {
    // The pane's shell traps SIGINT (so Ctrl-C does not end it too); the program gets the default.
    const pane = await tmuxPane(dir, `trap ':' INT; '${CLI}' --no-journal interrupt_once.py`, env);
    try {
      await pane.waitFor(/waiting/);
      await pane.keys("C-c");
      const screen = await pane.waitFor(/no second interrupt|Traceback/);
      assert.match(screen, /waiting\n(\^C)?interrupted once\nno second interrupt\n/);
      assert.equal(await pane.status(), 0);
    } finally {
      await pane.close();
    }
  }
});

test("SIGINT sent to aiython alone is relayed to the program", async () => {
  const run = start(CLI, ["sleep_interrupt.py"]);
  const programPid = await run.programPid;
  process.kill(run.pid, "SIGINT");
  const result = await run.done;
  assert.equal(result.signal, "SIGINT");
  assert.match(result.stderr, /KeyboardInterrupt/);
  assert.equal(result.stderr.match(/KeyboardInterrupt/g)?.length, 1, "exactly one KeyboardInterrupt");
  assert.ok(await gone(programPid));
});

test("SIGTERM is relayed; aiython ends by SIGTERM and leaves no process", async () => {
  const run = start(CLI, ["sleep_interrupt.py"]);
  const programPid = await run.programPid;
  process.kill(run.pid, "SIGTERM");
  const result = await run.done;
  assert.equal(result.signal, "SIGTERM");
  assert.doesNotMatch(result.stderr, /aiython:/);
  assert.ok(await gone(programPid));
});

test("a program that ignores SIGTERM is killed after the grace period", async () => {
  const run = start(CLI, ["ignore_term.py"], cleanEnv({ AIYTHON_KILL_GRACE_MS: "300" }));
  const programPid = await run.programPid;
  const sent = Date.now();
  process.kill(run.pid, "SIGTERM");
  const result = await run.done;
  assert.equal(result.signal, "SIGTERM");
  assert.ok(Date.now() - sent >= 250, "waited for the grace period");
  assert.ok(await gone(programPid));
});

test("if aiython itself is killed, the program does not survive it", async () => {
  const run = start(CLI, ["sleep_interrupt.py"]);
  const programPid = await run.programPid;
  process.kill(run.pid, "SIGKILL");
  await run.done;
  assert.ok(await gone(programPid), "the orphaned program ended");
});

test("an interpreter that dies of a signal is reported with exit 128+N", async () => {
  const run = start(CLI, ["crash.py"]);
  const result = await run.done;
  assert.equal(result.code, 139);
  assert.equal(result.stdout, "about to crash\n");
  assert.equal(result.stderr, "aiython: the Python process ended unexpectedly (signal 11)\n");
});

test("`| head -1`: same output and statuses as python3, aiython survives EPIPE", async () => {
  const line = (cmd: string) => `${cmd} many_lines.py | head -1; echo "status \${PIPESTATUS[0]}"`;
  const [ours, theirs] = await Promise.all([
    execa("bash", ["-c", line(CLI)], { cwd: PROGRAMS, env: cleanEnv(), reject: false }),
    execa("bash", ["-c", line(PYTHON)], { cwd: PROGRAMS, env: cleanEnv(), reject: false }),
  ]);
  assert.equal(ours.stdout, theirs.stdout);
  assert.equal(ours.stderr, theirs.stderr);
  assert.match(String(ours.stdout), /^line 0\nstatus \d+$/);
});

// ---- signals the shell left ignored --------------------------------------------------------------

const IGNORED = ["SIGHUP", "SIGTERM", "SIGUSR1"] as const;

/** Runs inherited_ignore.py under `launch` (a shell line around COMMAND), sends it `signal` once it runs. */
async function outlive(launch: string, command: string, signal: NodeJS.Signals) {
  const run = start("bash", ["-c", launch.replace("COMMAND", `"${command}"`)]);
  await run.programPid;
  await new Promise((r) => setTimeout(r, 100));
  process.kill(run.pid, signal);
  const result = await run.done;
  return { ...result, stdout: result.stdout.replace(/^pid \d+\n/, "") };
}

for (const signal of IGNORED) {
  const trap = signal.replace(/^SIG/, "");
  test(`trap '' ${trap}: the program inherits it ignored and outlives it, as under python3`, async () => {
    const launch = `trap '' ${trap}; exec COMMAND inherited_ignore.py`;
    const [ours, theirs] = await Promise.all([outlive(launch, CLI, signal), outlive(launch, PYTHON, signal)]);
    assert.deepEqual(ours, theirs);
    assert.equal(ours.code, 0);
    assert.match(ours.stdout, /'SIG_IGN'.*False\nsurvived\n$/);
  });
}

test("nohup: SIGHUP stays ignored for the program, as under python3", async () => {
  const [ours, theirs] = await Promise.all([outlive("exec nohup COMMAND inherited_ignore.py", CLI, "SIGHUP"), outlive("exec nohup COMMAND inherited_ignore.py", PYTHON, "SIGHUP")]);
  assert.deepEqual(ours, theirs);
  assert.equal(ours.stdout, "['SIG_IGN', 'SIG_DFL', 'SIG_DFL'] False\nsurvived\n");
});

// ---- signals while a pause waits on the model ------------------------------------------------

/** block_waits.py in a project whose model answers after a minute; resolves once the model was asked. */
async function waitingOnModel(model: LoopbackModel, args: string[]) {
  const dir = tempProject({ "block_waits.py": { copy: path.join(PROGRAMS, "block_waits.py") } }, { prefix: "aiython-signals-" });
  const env = cleanEnv({ AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-test" });
  const run = start(CLI, ["block_waits.py", ...args], env, dir);
  const asked = model.requests.length;
  await run.programPid;
  const until = Date.now() + 20_000;
  while (model.requests.filter((r) => r.path.endsWith("/chat/completions")).length <= asked && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
  }
  return { run, dir, env };
}

for (const [what, args] of [
  ["an AI block waits on the model", []],
  ["a recovery consultation waits on the model", ["recovery"]],
] as const) {
  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`${signal} while ${what}: the run ends by ${signal} (128+n), and the journal says so`, async () => {
      const model = await startLoopbackModel({ responder: () => ({ delayMs: 60_000, content: "too late" }) });
      try {
        const { run, dir, env } = await waitingOnModel(model, [...args]);
        const programPid = await run.programPid;
        process.kill(run.pid, signal);
        const result = await run.done;
        assert.equal(result.signal, signal, `ended by ${signal}, not status ${result.code}: ${result.stderr}`);
        assert.equal(result.stderr, "");
        assert.match(result.stdout, /^pid \d+\n$/);
        assert.ok(await gone(programPid));
        const runs = await aiython(["runs", "list"], { cwd: dir, env });
        assert.match(runs.stdout, new RegExp(`block_waits\\.py\\s+${signal}\\s`), runs.stdout);
      } finally {
        await model.close();
      }
    });
  }
}

test("SIGTERM while an AI block waits: the program's own handler runs and its status is the run's", async () => {
  const model = await startLoopbackModel({ responder: () => ({ delayMs: 60_000, content: "too late" }) });
  try {
    const { run } = await waitingOnModel(model, ["handle"]);
    process.kill(run.pid, "SIGTERM");
    const result = await run.done;
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stdout, /handler ran\n$/);
  } finally {
    await model.close();
  }
});
