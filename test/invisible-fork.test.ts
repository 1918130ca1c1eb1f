// os.fork() after a run has spoken with the model (aiython's reader thread runs from then on)
// warns exactly as under python3 on 3.11–3.13: no DeprecationWarning about a multi-threaded
// process while the program has no thread of its own (3.12+ would otherwise count aiython's),
// CPython's warning when it has one, and neither a warnings filter nor a `__warningregistry__`
// left behind. aiython runs the fixture's AI block with a scripted model; python3 runs its twin,
// the block's value in its place, from the same path.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { execa } from "execa";
import { INTERPRETERS } from "./support/interpreters.js";
import { CLI, cleanEnv, ROOT } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const BLOCK = "answer = the answer to everything\n";
const WARNING = /: DeprecationWarning: This process \(pid=N\) is multi-threaded, use of fork\(\) may lead to deadlocks in the child\.\n/g;

const pids = (text: unknown) => String(text).replace(/\(pid=\d+\)/g, "(pid=N)");

for (const [version, python] of INTERPRETERS) {
  test(`${version}: os.fork() after an AI block warns of the program's threads only, as python3`, { skip: !python && `needs ${version}` }, async () => {
    const source = fs.readFileSync(path.join(FIXTURES, "fork_after_block.py"), "utf8");
    assert.ok(source.includes(BLOCK));
    const dir = tempProject({ "fork.py": source, "rules.toml": { copy: path.join(FIXTURES, "fork_rules.toml") } });
    const options = { cwd: dir, extendEnv: false, reject: false, stripFinalNewline: false, timeout: 90_000 };
    const ours = await execa(CLI, ["--python", python!, "--no-journal", "fork.py"], { ...options, env: cleanEnv({ AIYTHON_MODEL: "script:rules.toml" }) });
    fs.writeFileSync(path.join(dir, "fork.py"), source.replace(BLOCK, "answer = 42\n"));
    const theirs = await execa(python!, ["fork.py"], { ...options, env: cleanEnv() });
    assert.equal(theirs.exitCode, 0, String(theirs.stderr));
    assert.match(String(theirs.stdout), /^answer 42 threads 1 child ended 7\nregistry False filters \d+\n/);
    assert.equal(pids(theirs.stderr).match(WARNING)?.length ?? 0, version === "3.11" ? 0 : 1);
    assert.equal(ours.stdout, theirs.stdout);
    assert.equal(pids(ours.stderr), pids(theirs.stderr));
    assert.equal(ours.exitCode, theirs.exitCode);
  });
}
