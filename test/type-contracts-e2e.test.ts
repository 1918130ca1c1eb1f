// `type_contracts = "all"` end to end (SPEC §6 for normal Python), with the built CLI: each kind of
// site (annotated assignment, attribute and subscript targets, a parameter, a return, a method,
// an async function, string annotations, a project module) passes a value that keeps the
// contract (its output is python3's up to there) and then fails with TypeContractError whose
// traceback ends on the line its fixture marks `# violation: MESSAGE`, with that message and no
// frame of aiython's, without a model and with one (which is never asked); annotated code that
// keeps its contracts prints what python3 prints; and with the key absent or "ai" every fixture
// runs exactly as under python3, byte for byte, and prepares the very same cache entries.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { execa } from "execa";
import { startLoopbackModel } from "./support/loopback-model.js";
import { chatRequests } from "./support/observe-e2e.js";
import { aiython, cleanEnv, python, ROOT, type Ran } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "type-contracts");
const FAILING = ["assignment.py", "attribute.py", "subscript.py", "argument.py", "returned.py", "method.py", "coroutine.py", "future_annotations.py", "imports.py"];
const ALL = 'version = 3\ntype_contracts = "all"\n';

/** A project holding every fixture, with `toml` as its aiython.toml (none when null). */
function project(toml: string | null): string {
  const root = tempProject();
  fs.cpSync(FIXTURES, root, { recursive: true });
  if (toml !== null) fs.writeFileSync(path.join(root, "aiython.toml"), toml);
  return root;
}

/** Where a fixture (or the module it imports) marks its violation: file, line, message. */
function violationOf(root: string, script: string): { file: string; line: number; message: string } {
  for (const file of [script, "shop/pricing.py"]) {
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
    const index = lines.findIndex((line) => line.includes("# violation: "));
    if (index >= 0) return { file: path.join(root, file), line: index + 1, message: lines[index].split("# violation: ")[1] };
  }
  throw new Error(`${script} marks no violation`);
}

function assertViolation(ran: Ran, root: string, script: string): void {
  const expected = violationOf(root, script);
  assert.equal(ran.exitCode, 1, ran.stderr);
  const lines = ran.stderr.trimEnd().split("\n");
  assert.equal(lines.at(-1), `aiython.TypeContractError: ${expected.message}`);
  const frames = lines.filter((line) => line.startsWith("  File "));
  assert.match(frames.at(-1) ?? "", new RegExp(`^  File "${expected.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}", line ${expected.line}, in `));
  const shown = fs.readFileSync(expected.file, "utf8").split("\n")[expected.line - 1].trim();
  assert.ok(lines.includes(`    ${shown}`), `the traceback shows the line itself:\n${ran.stderr}`);
  assert.doesNotMatch(ran.stderr, /aiython_bridge|bridge-py/, "no frame or path of aiython's");
}

const run = (root: string, script: string, env: NodeJS.ProcessEnv = cleanEnv()) => aiython(["--no-journal", script], { cwd: root, env });

const PYENV = "/root/.pyenv/versions";
const pythonAt = (version: string) => {
  const dir = fs.existsSync(PYENV) ? fs.readdirSync(PYENV).find((v) => v.startsWith(`${version}.`)) : undefined;
  return dir ? path.join(PYENV, dir, "bin", "python3") : version === "3.11" ? "python3" : null;
};

describe('type_contracts = "all", no model configured', () => {
  const root = project(ALL);
  for (const version of ["3.11", "3.12", "3.13"]) {
    const interpreter = pythonAt(version);
    test(`${version}: each kind of site fails with TypeContractError at its marked line`, { skip: !interpreter && `needs ${version}` }, async () => {
      for (const script of FAILING) {
        const [ran, theirs] = await Promise.all([
          aiython(["--python", interpreter!, "--no-journal", script], { cwd: root, env: cleanEnv() }),
          execa(interpreter!, [script], { cwd: root, env: cleanEnv(), extendEnv: false, reject: false, stripFinalNewline: false }),
        ]);
        assertViolation(ran, root, script);
        // The passing case before the violation ran as under python3, which goes on past it.
        const plain = String(theirs.stdout);
        assert.ok(ran.stdout.length > 0 && plain.startsWith(ran.stdout), `${script}: stdout ${JSON.stringify(ran.stdout)}`);
        assert.notEqual(ran.stdout, plain, `${script}: python3 goes on past the violation`);
      }
    });
  }

  test("annotated code that keeps its contracts prints what python3 prints", async () => {
    const [ours, theirs] = await Promise.all([run(root, "passing.py"), python(["passing.py"], { cwd: root })]);
    assert.equal(ours.stderr, theirs.stderr);
    assert.equal(ours.stdout, theirs.stdout);
    assert.equal(ours.exitCode, 0);
  });

  test("a second run, from the preparation cache, fails the same way", async () => {
    const again = project(ALL);
    const first = await run(again, "argument.py");
    const cached = fs.readdirSync(path.join(again, ".aiython", "cache")).filter((name) => name.endsWith(".prep"));
    assert.equal(cached.length, 1);
    const second = await run(again, "argument.py");
    assert.deepEqual(second, first);
    assertViolation(second, again, "argument.py");
  });
});

test('type_contracts = "all" with a model configured: the same errors, and the model is never asked', async () => {
  const model = await startLoopbackModel();
  try {
    const root = project(`${ALL}model = { model = "loop", api_base = "${model.url}" }\n`);
    for (const script of ["assignment.py", "argument.py", "imports.py"]) assertViolation(await run(root, script, cleanEnv({ OPENAI_API_KEY: "sk-test" })), root, script);
    assert.equal(chatRequests(model), 0, "a contract violation is not sent to recovery");
  } finally {
    await model.close();
  }
});

describe("off by default: every fixture runs as under python3", () => {
  for (const [name, toml] of [
    ["no aiython.toml", null],
    ["no type_contracts key", "version = 3\n"],
    ['type_contracts = "ai"', 'version = 3\ntype_contracts = "ai"\n'],
  ] as const) {
    test(name, async () => {
      const root = project(toml);
      for (const script of [...FAILING, "passing.py"]) {
        const [ours, theirs] = await Promise.all([run(root, script), python([script], { cwd: root })]);
        assert.equal(ours.stdout, theirs.stdout, `${script}: stdout`);
        assert.equal(ours.stderr, theirs.stderr, `${script}: stderr`);
        assert.equal(ours.exitCode, theirs.exitCode, `${script}: exit status`);
      }
    });
  }

  test('with a model, "ai" prepares the same cache entries as no key (same keys, same bytes)', async () => {
    const model = await startLoopbackModel();
    try {
      const root = project(null);
      const folder = path.join(root, ".aiython", "cache");
      const entries = async (extra: string) => {
        fs.rmSync(folder, { recursive: true, force: true });
        // With PYTHONDONTWRITEBYTECODE unset, CPython's __pycache__ from the run before changes how a module is
        // prepared (its plain code read or compiled): each run starts from the same folder.
        for (const name of fs.readdirSync(root, { recursive: true }) as string[]) {
          if (path.basename(name) === "__pycache__") fs.rmSync(path.join(root, name), { recursive: true, force: true });
        }
        fs.writeFileSync(path.join(root, "aiython.toml"), `version = 3\n${extra}model = { model = "loop", api_base = "${model.url}" }\n`);
        for (const script of ["imports.py", "passing.py"]) await run(root, script, cleanEnv({ OPENAI_API_KEY: "sk-test" }));
        const names = fs
          .readdirSync(folder)
          .filter((name) => name.endsWith(".prep"))
          .sort();
        return names.map(
          (name) =>
            `${name} ${createHash("sha256")
              .update(fs.readFileSync(path.join(folder, name)))
              .digest("hex")}`,
        );
      };
      const [absent, ai, all] = [await entries(""), await entries('type_contracts = "ai"\n'), await entries('type_contracts = "all"\n')];
      assert.ok(absent.length >= 3, "the entry programs and the project module are prepared");
      assert.deepEqual(ai, absent);
      assert.equal(all.filter((entry) => absent.includes(entry)).length, 0, '"all" keys its entries apart');
    } finally {
      await model.close();
    }
  });
});
