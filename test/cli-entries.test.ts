// Entries that are not programs (SPEC §4.1): a compiled file runs as python3 runs it, and bytes
// CPython refuses before parsing (not UTF-8 without a coding cookie, not in the cookie's codec,
// a NUL byte, a binary file) end with CPython's own SyntaxError and exit 1: never an internal
// error, never a plan, never aiython's diagnostics. Every entry is a file of bytes written here
// (a .pyc depends on the interpreter), run as a script and from stdin, with and without a model
// configured, and compared with python3 byte for byte.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { execa } from "execa";
import { assertSame, cleanEnv, CLI, PYTHON } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

/** A model is configured (every program is planned and checkpointed) but never reachable. */
const MODEL = { AIYTHON_MODEL: "test-model", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "sk-test" };

const PROGRAM = "import sys\nprint('compiled', type(__loader__).__name__, __cached__, sys.argv, sys.path[0] != '')\nraise SystemExit(3)\n";
const bytes = (text: string) => Buffer.from(text, "latin1");

/** Each entry: its file name and bytes (a function of the folder for compiled files). */
const ENTRIES: { name: string; what: string; data: Buffer | ((dir: string) => Buffer) }[] = [
  { name: "prog.pyc", what: "a compiled file", data: (dir) => compiled(dir) },
  { name: "compiled_program", what: "a compiled file without the .pyc suffix (its magic number)", data: (dir) => compiled(dir) },
  { name: "bad_magic.pyc", what: "a .pyc with another magic number", data: bytes("print('not compiled')\n") },
  { name: "header_only.pyc", what: "a .pyc without a code object", data: (dir) => compiled(dir).subarray(0, 16) },
  { name: "tiny.pyc", what: "a .pyc shorter than its header", data: (dir) => compiled(dir).subarray(0, 10) },
  { name: "archive.gz", what: "a binary file", data: Buffer.from("1f8b0808a7c16a650003662e707900cb2d4ee7020032c3a5c1070000", "hex") },
  { name: "not_utf8.py", what: "bytes that are not UTF-8 on line 3, no cookie", data: bytes('x = 1\nprint(x)\ny = "\xff\xfe"\n') },
  { name: "not_utf8_cr.py", what: "lines ended by \\r", data: bytes("x = 1\ry = 2\r\xe9\n") },
  { name: "nul.py", what: "a NUL byte in otherwise valid code", data: bytes("x = 1\nprint(x)\x00\nprint(2)\n") },
  { name: "nul_last.py", what: "a NUL byte on a line of its own at the end", data: bytes("x = 1\n\x00") },
  { name: "nul_then_bad.py", what: "a NUL byte before bytes that are not UTF-8", data: bytes("x = \x00 \xff\n") },
  { name: "bad_then_nul.py", what: "bytes that are not UTF-8 before a NUL byte", data: bytes("x = \xff \x00\n") },
  { name: "nul_utf8.py", what: "a NUL byte after UTF-8 text", data: bytes('x = "\xc3\xa9"\x00\n') },
  { name: "nul_latin1.py", what: "a NUL byte under a latin-1 cookie", data: bytes('# coding: latin-1\nx = "\xe9"\x00\n') },
  { name: "nul_bom.py", what: "a NUL byte after a UTF-8 BOM", data: bytes("\xef\xbb\xbfx = 1\x00\n") },
  { name: "unknown_codec.py", what: "a cookie naming no codec", data: bytes("# -*- coding: nonesuch -*-\nx = 1\n") },
  { name: "ascii_cookie.py", what: "bytes the cookie's codec cannot decode", data: bytes('# coding: ascii\nx = "\xc3\xa9"\n') },
  { name: "bom_latin1.py", what: "a BOM and a latin-1 cookie", data: bytes("\xef\xbb\xbf# coding: latin-1\nx = 1\n") },
];

function compiled(dir: string): Buffer {
  const source = path.join(dir, "source_of_compiled.py");
  fs.writeFileSync(source, PROGRAM);
  const target = path.join(dir, "compiled.bin");
  execFileSync(PYTHON, ["-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)", source, target]);
  return fs.readFileSync(target);
}

function entryIn(entry: (typeof ENTRIES)[number]): string {
  const dir = tempProject({}, { prefix: "aiython-entries-" });
  fs.writeFileSync(path.join(dir, entry.name), typeof entry.data === "function" ? entry.data(dir) : entry.data);
  return dir;
}

for (const entry of ENTRIES) {
  for (const model of [false, true]) {
    const how = model ? ", a model configured" : "";
    test(`${entry.what} (${entry.name}${how}): as python3 runs it`, async () => {
      const dir = entryIn(entry);
      const env = cleanEnv(model ? MODEL : {});
      const ours = await assertSame([entry.name, "arg"], { cwd: dir, env });
      assert.ok(ours.exitCode === 1 || ours.exitCode === 3, `exit ${ours.exitCode}: ${ours.stderr}`);
      assert.doesNotMatch(ours.stderr, /aiython:|During handling/);
    });
    test(`${entry.what} (${entry.name}${how}), read from stdin: as python3 runs it`, async () => {
      const dir = entryIn(entry);
      await assertSame(["-"], { cwd: dir, env: cleanEnv(model ? MODEL : {}), inputFile: path.join(dir, entry.name) });
    });
  }
}

test("a latin-1 cookie on piped stdin is refused as python3 refuses it; from a file it runs", async () => {
  const program = bytes('# coding: latin-1\nprint("caf\xe9")\n');
  const piped = await assertSame(["-"], { input: program });
  assert.equal(piped.exitCode, 1);
  const dir = tempProject({}, { prefix: "aiython-entries-" });
  const file = path.join(dir, "latin1.py");
  fs.writeFileSync(file, program);
  const redirect = (command: string) => execa("bash", ["-c", `"${command}" - < "${file}"`], { env: cleanEnv(), reject: false });
  const [ours, theirs] = await Promise.all([redirect(CLI), redirect(PYTHON)]);
  assert.deepEqual([ours.stdout, ours.stderr, ours.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode]);
  assert.equal(ours.stdout, "café");
});
