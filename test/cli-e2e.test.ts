// End-to-end: the built CLI runs valid programs exactly as python3 does (SPEC §2, §4.1):
// stdout, stderr and exit status compared side by side with python3 on the same fixtures.

import assert from "node:assert/strict";
import { test } from "node:test";
import { aiython, assertSame } from "./support/run-cli.js";

test("argv, sys.path[0], __main__ globals and builtins are python3's", async () => {
  const ours = await assertSame(["argv_view.py", "one", "--two", "-c", "x y"]);
  assert.match(ours.stdout, /\['argv_view.py', 'one', '--two', '-c', 'x y'\]/);
});

test("options after the script belong to the program", async () => {
  await assertSame(["argv_view.py", "--version", "--python", "nowhere", "-m", "x"]);
});

test("-c CODE with arguments", async () => {
  const ours = await assertSame(["-c", "import sys; print(sys.argv, repr(sys.path[0]), list(globals()))", "a", "-b"]);
  assert.match(ours.stdout, /\['-c', 'a', '-b'\]/);
});

test("-m package with arguments, including runpy frames in the traceback", async () => {
  const ours = await assertSame(["-m", "pkg", "arg1", "--flag"]);
  assert.equal(ours.exitCode, 1);
  assert.match(ours.stderr, /File "<frozen runpy>"/);
  assert.match(ours.stderr, /ValueError: from a package's __main__/);
});

test("- runs the program read from stdin, with arguments", async () => {
  const program = "import sys\nprint(sys.argv, repr(sys.path[0]), __file__)\nraise SystemExit(4)\n";
  const ours = await assertSame(["-", "x", "y"], { input: program });
  assert.equal(ours.exitCode, 4);
  assert.match(ours.stdout, /\['-', 'x', 'y'\] '' <stdin>/);
});

test("no program and piped stdin runs stdin", async () => {
  const ours = await aiython([], { input: "print('from stdin', 6 * 7)\n" });
  assert.equal(ours.stdout, "from stdin 42\n");
  assert.equal(ours.exitCode, 0);
});

test("no program and piped stdin: sys.argv is [''] as under python3 (with -, ['-'])", async () => {
  const program = "import sys; print(sys.argv, sys.orig_argv[1:], __file__ if '__file__' in dir() else None)\n";
  const ours = await assertSame([], { input: program });
  assert.equal(ours.stdout, "[''] [] <stdin>\n");
});

test("a program reading stdin with input() gets every line", async () => {
  const ours = await assertSame(["read_stdin.py"], { input: "alpha\nbeta\ngamma\n" });
  assert.match(ours.stdout, /3 \['alpha', 'beta', 'gamma'\]/);
});

for (const code of ["0", "3", "255", "bye now"]) {
  test(`sys.exit(${code}) gives python3's status and output`, async () => {
    const ours = await assertSame(["exit_code.py", code]);
    assert.equal(ours.exitCode, /^\d+$/.test(code) ? Number(code) : 1);
  });
}

test("an uncaught exception in nested calls prints python3's exact traceback", async () => {
  const ours = await assertSame(["nested_error.py"]);
  assert.equal(ours.exitCode, 1);
  assert.match(ours.stderr, /The above exception was the direct cause/);
  assert.doesNotMatch(ours.stderr, /aiython_bridge|<string>/);
});

test("printing to stderr after closing stdout", async () => {
  const ours = await assertSame(["close_stdout.py"]);
  assert.match(ours.stderr, /still on stderr/);
});

test("atexit handlers run in order after an uncaught exception", async () => {
  const ours = await assertSame(["atexit_order.py"]);
  assert.equal(ours.exitCode, 1);
  assert.match(ours.stdout, /body done\nfirst registered\n/);
});

test("subprocesses never see the control sockets; the first free fd is 3", async () => {
  const ours = await assertSame(["subprocess_fds.py"]);
  assert.match(ours.stdout, /sockets in subprocess: \[\]/);
  assert.match(ours.stdout, /sockets-in-shell:0/);
  assert.match(ours.stdout, /first free fd: 3/);
});

test("-i enters the console after the program, as python3 -i does", async () => {
  const ours = await assertSame(["-i", "-c", "x = 41"], { input: "print(x + 1)\n" });
  assert.match(ours.stdout, /42/);
});

test("from aiython import AIError works in any program", async () => {
  const ours = await aiython(["import_aiython.py"]);
  assert.equal(ours.stdout, "aiython AIError True\n");
  assert.equal(ours.exitCode, 0);
});

test("a directory with __main__.py runs like python3 runs it", async () => {
  await assertSame(["pkg"]);
});

test("a file with a syntax error that no AI block explains fails as in CPython when no model is configured", async () => {
  // 'return' outside a function is a compile error of valid syntax: CPython's message, exit 1.
  const ours = await assertSame(["-c", "return 5"]);
  assert.equal(ours.exitCode, 1);
  assert.match(ours.stderr, /SyntaxError: 'return' outside function/);
});
