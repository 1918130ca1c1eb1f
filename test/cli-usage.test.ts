// End-to-end: user mistakes get one `aiython: …` line and exit 2 (SPEC §2); interpreter choice
// follows --python > AIYTHON_PYTHON > $VIRTUAL_ENV/bin/python > python3.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { aiython, cleanEnv, CLI, ROOT } from "./support/run-cli.js";
import { VERSION } from "../src/version.js";
import { tempProject } from "./support/temp-project.js";

const PYENV = "/root/.pyenv/versions";
const pythonAt = (version: string) => {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(version)) : undefined;
  const exe = dir && ["python3", "python"].map((name) => path.join(PYENV, dir, "bin", name)).find((p) => fs.existsSync(p));
  return exe ?? null;
};

function assertOneLineError(result: { stderr: string; stdout: string; exitCode?: number }, pattern: RegExp, status = 2) {
  assert.equal(result.exitCode, status);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line, got: ${result.stderr}`);
  assert.match(lines[0], /^aiython: /);
  assert.match(lines[0], pattern);
}

test("a missing script", async () => {
  assertOneLineError(await aiython(["no_such_script.py"]), /can't open file '.*no_such_script.py': No such file or directory/);
});

test("a folder without __main__.py", async () => {
  const dir = tempProject({}, { git: false, prefix: "aiython-empty-" });
  assertOneLineError(await aiython([dir]), /is a folder without __main__.py/);
});

test("an unknown option", async () => {
  assertOneLineError(await aiython(["--frobnicate", "x.py"]), /unknown option '--frobnicate'.*aiython --help/);
});

test("-c and -m without a value", async () => {
  assertOneLineError(await aiython(["-c"]), /-c needs the code to run/);
  assertOneLineError(await aiython(["-m"]), /-m needs a module name/);
});

test("an option that needs a value at the end", async () => {
  assertOneLineError(await aiython(["--python"]), /--python needs a value/);
});

test("--profile and --force-profile together", async () => {
  assertOneLineError(await aiython(["--profile", "a", "--force-profile", "b", "argv_view.py"]), /cannot be used together/);
});

test("a missing interpreter names itself and the fix", async () => {
  assertOneLineError(await aiython(["--python", "/nowhere/python9", "argv_view.py"]), /'\/nowhere\/python9' \(from --python\) not found.*--python/);
});

test("something that is not Python", async () => {
  assertOneLineError(await aiython(["--python", "/bin/true", "argv_view.py"]), /did not start as a Python interpreter/);
});

test("an interpreter older than 3.11 is refused with its version", { skip: !pythonAt("3.10") && "no Python 3.10 here" }, async () => {
  assertOneLineError(await aiython(["--python", pythonAt("3.10")!, "argv_view.py"]), /Python 3\.10\.\d+ at .* is too old: aiython needs Python 3\.11 or newer/);
});

test("Python 2 is refused too", { skip: !pythonAt("2.7") && "no Python 2.7 here" }, async () => {
  assertOneLineError(await aiython(["--python", pythonAt("2.7")!, "argv_view.py"]), /Python 2\.7\.\d+ .* too old/);
});

const py312 = pythonAt("3.12");
const py313 = pythonAt("3.13");
const version = ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"];

test("interpreter precedence: --python > AIYTHON_PYTHON > VIRTUAL_ENV > python3", { skip: !(py312 && py313) && "needs 3.12 and 3.13" }, async () => {
  const venv = tempProject({}, { git: false, prefix: "aiython-venv-" });
  fs.mkdirSync(path.join(venv, "bin"));
  fs.symlinkSync(py313!, path.join(venv, "bin", "python"));
  const run = async (args: string[], env: Record<string, string>) => (await aiython(args, { env: cleanEnv(env) })).stdout.trim();
  assert.equal(await run(version, { VIRTUAL_ENV: venv }), "3.13");
  assert.equal(await run(version, { VIRTUAL_ENV: venv, AIYTHON_PYTHON: py312! }), "3.12");
  assert.equal(await run(["--python", py313!, ...version], { AIYTHON_PYTHON: py312! }), "3.13");
  assert.equal(await run(version, {}), "3.11");
});

test("runs unchanged on 3.12 and 3.13", { skip: !(py312 && py313) && "needs 3.12 and 3.13" }, async () => {
  for (const py of [py312!, py313!]) {
    const result = await aiython(["--python", py, "nested_error.py"]);
    assert.equal(result.exitCode, 1);
    assert.match(result.stderr, /RuntimeError: cannot parse 'x'/);
    assert.doesNotMatch(result.stderr, /aiython_bridge/);
  }
});

test("--version prints the package version", async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  assert.equal(VERSION, pkg.version);
  const result = await aiython(["--version"]);
  assert.equal(result.stdout, `${VERSION}\n`);
  assert.equal(result.exitCode, 0);
});

test("--help describes the usage", async () => {
  const result = await aiython(["--help"]);
  assert.equal(result.exitCode, 0);
  assert.match(result.stdout, /Usage: aiython \[options\] SCRIPT \[ARGS\.\.\.\]/);
  assert.match(result.stdout, /--python <path>/);
});

test("help says --stats[=json] and --replay[=RUN_ID][,fill]; runs, jobs and config take --help; a closed pipe ends help quietly", async () => {
  const help = await aiython(["--help"]);
  assert.equal(help.exitCode, 0);
  assert.match(help.stdout, /\n {2}--stats\[=json\] +print per-invocation statistics/);
  assert.match(help.stdout, /\n {2}--replay\[=RUN_ID\]\[,fill\] +answer model requests from the journal/);
  assert.doesNotMatch(help.stdout, /--stats \[format\]/);
  for (const [name, usage] of [
    ["runs", "Usage: aiython runs list [--limit N] [--json]\n       aiython runs show ID [--json]\n"],
    ["jobs", "Usage: aiython jobs list [--json]\n       aiython jobs resume ID\n"],
    ["config", "Usage: aiython config show\n"],
  ]) {
    for (const flag of ["--help", "-h"]) {
      const ran = await aiython([name, flag]);
      assert.equal(ran.exitCode, 0, `${name} ${flag}: ${ran.stderr}`);
      assert.ok(ran.stdout.startsWith(usage), ran.stdout);
      assert.equal(ran.stderr, "");
    }
  }
  for (const args of [["--help"], ["--version"], ["runs", "--help"]]) {
    const piped = await execa("sh", ["-c", `'${CLI}' ${args.join(" ")} | true`], { env: cleanEnv(), extendEnv: false, reject: false });
    assert.equal(piped.stderr, "", `${args.join(" ")} | true`);
  }
});
