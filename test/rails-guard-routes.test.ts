// End-to-end: the source guard's attack routes as data (SPEC §9). test/fixtures/guard/routes.jsonl
// holds one route a line: the code a model's `execute` runs, and either `refused` (the tool error's
// message, and `error` its type when not GuardError) or `later` (what the code sets going acts
// after the tool returned: a thread, a timer, an atexit handler, a patched function, a hook, an
// event-loop callback; the file `victims/<later>.py` it aims at must still be there, and the
// refusal is seen on stderr), or `open` (a route a Python-level guard cannot stop, which README's
// "Safety rails" names: counted, not run). The next route anyone finds is one line to add.
//
// The routes run through the built CLI in a few runs of test/fixtures/guard/program.py, under an
// interpreter of a fresh virtual environment (its site-packages and user site are the test's own),
// and after each run nothing the routes aim at has changed: the source, the configuration, the
// journal, site-packages, the bytecode, and no process ran.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import Database from "better-sqlite3";
import { execa } from "execa";
import { aiython, cleanEnv, PYTHON, ROOT } from "./support/run-cli.js";
import { finishCall, startLoopbackModel, toolCall, type RecordedRequest } from "./support/loopback-model.js";
import { tempProject } from "./support/temp-project.js";

interface Route {
  route: string;
  code: string;
  refused?: string;
  error?: string;
  later?: string;
  open?: string;
}

const FIXTURES = path.join(ROOT, "test", "fixtures", "guard");
const ROUTES: Route[] = fs
  .readFileSync(path.join(FIXTURES, "routes.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));
const RUNNABLE = ROUTES.filter((route) => route.open === undefined);
const CHUNK = 40;
const VICTIM = "# a file a route aims at\n";

let venvPython = "";
let userBase = "";

before(async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-guard-venv-"));
  await execa(PYTHON, ["-m", "venv", "--without-pip", path.join(home, "venv")]);
  venvPython = path.join(home, "venv", "bin", "python");
  userBase = path.join(home, "userbase");
  process.once("exit", () => fs.rmSync(home, { recursive: true, force: true }));
});

test("the corpus holds at least 64 routes that run, each with one expectation", () => {
  assert.ok(RUNNABLE.length >= 64, `${RUNNABLE.length} routes run`);
  for (const route of ROUTES) {
    const kinds = [route.refused, route.later, route.open].filter((kind) => kind !== undefined);
    assert.equal(kinds.length, 1, `${route.route}: one of refused, later, open`);
  }
  assert.equal(new Set(ROUTES.map((route) => route.route)).size, ROUTES.length, "route names are unique");
});

for (let start = 0; start < RUNNABLE.length; start += CHUNK) {
  const routes = RUNNABLE.slice(start, start + CHUNK);
  test(`routes ${start + 1}–${start + routes.length} of ${RUNNABLE.length} are refused or contained`, { timeout: 120_000 }, async () => {
    const { dir, requests, stdout, stderr, exitCode } = await runRoutes(routes);
    assert.equal(exitCode, 0, stderr);
    assert.match(stdout, /done\n$/);
    const results = routes.map((_, index) => toolResult(requests[index + 1], index));
    routes.forEach((route, index) => {
      const result = results[index];
      if (route.refused !== undefined) {
        assert.equal(result.status, "error", `${route.route}: refused, got ${JSON.stringify(result)}`);
        assert.equal(result.error, route.error ?? "GuardError", `${route.route}: ${result.message}`);
        assert.match(result.message ?? "", new RegExp(route.refused), route.route);
      } else {
        assert.equal(result.status, "ok", `${route.route}: the tool itself returns, got ${JSON.stringify(result)}`);
        assert.equal(fs.readFileSync(path.join(dir, "victims", `${route.later}.py`), "utf8"), VICTIM, `${route.route}: its victim is untouched`);
        assert.match(stderr, new RegExp(`refused \\w+ victims/${route.later}\\.py`), `${route.route}: refused when it acted`);
      }
    });
    assertNothingChanged(dir);
  });
}

async function runRoutes(routes: Route[]) {
  const victims = Object.fromEntries(routes.filter((r) => r.later).map((r) => [`victims/${r.later}.py`, VICTIM]));
  const dir = tempProject(
    {
      "main.py": { copy: path.join(FIXTURES, "program.py") },
      "helper.py": { copy: path.join(FIXTURES, "helper.py") },
      "pkg/mod.py": "VALUE = 1\n",
      "notes.txt": "print('not a module')\n",
      ...victims,
    },
    { prefix: "aiython-guard-routes-" },
  );
  fs.linkSync(path.join(dir, "helper.py"), path.join(dir, "alias.txt"));
  const server = await startLoopbackModel({
    script: [...routes.map((route) => ({ toolCalls: [toolCall("execute", { code: route.code })] })), finishCall({ kind: "literal", value: "tried" })],
  });
  fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = { model = "test-model", api_base = "${server.url}" }\nmax_rounds = ${routes.length + 1}\n`);
  try {
    const run = await aiython(["--python", venvPython, "main.py"], {
      cwd: dir,
      env: cleanEnv({ OPENAI_API_KEY: "sk-guard-routes", PYTHONUSERBASE: userBase }),
      timeout: 110_000,
      // Its own process group: a route that signals its group (refused, unless the guard broke)
      // reaches no further than this run.
      detached: true,
    });
    assert.deepEqual(server.problems, []);
    return { dir, requests: server.requests.filter((r) => r.path.endsWith("/chat/completions")), ...run };
  } finally {
    await server.close();
  }
}

/** The result of the one tool call answered in `request` (the reply to route `index`). */
function toolResult(request: RecordedRequest | undefined, index: number): { status: string; error?: string; message?: string } {
  assert.ok(request, `the model was asked again after route ${index + 1}`);
  const last = request.body.messages.at(-1);
  assert.equal(last.role, "tool");
  return JSON.parse(last.content);
}

function assertNothingChanged(dir: string): void {
  const same = (name: string, text: string) => assert.equal(fs.readFileSync(path.join(dir, name), "utf8"), text, `${name} is unchanged`);
  same("main.py", fs.readFileSync(path.join(FIXTURES, "program.py"), "utf8"));
  same("helper.py", fs.readFileSync(path.join(FIXTURES, "helper.py"), "utf8"));
  same("pkg/mod.py", "VALUE = 1\n");
  assert.match(fs.readFileSync(path.join(dir, "aiython.toml"), "utf8"), /^version = 3\n/);
  assert.deepEqual(
    fs.readdirSync(dir).filter((name) => name.startsWith("spawned-")),
    [],
    "no process a route started ran",
  );
  const site = path.join(path.dirname(path.dirname(venvPython)), "lib");
  const planted = fs.readdirSync(site, { recursive: true, encoding: "utf8" }).filter((name) => /evil|sitecustomize|README/.test(name));
  assert.deepEqual(planted, [], "site-packages holds nothing a route wrote");
  assert.ok(!fs.existsSync(path.join(userBase, "lib")) || fs.readdirSync(userBase, { recursive: true, encoding: "utf8" }).every((name) => !name.endsWith(".pth")));
  const cache = path.join(dir, "__pycache__");
  for (const name of fs.existsSync(cache) ? fs.readdirSync(cache) : []) {
    assert.ok(!name.startsWith("main."), `no bytecode planted for main.py (${name})`);
    assert.notDeepEqual(fs.readFileSync(path.join(cache, name)).subarray(0, 4), Buffer.from("evil"), `${name} was not edited`);
  }
  const journal = new Database(path.join(dir, ".aiython", "aiython.sqlite"), { readonly: true });
  try {
    assert.equal((journal.prepare("SELECT count(*) AS n FROM runs").get() as { n: number }).n, 1, "the journal still holds the run");
  } finally {
    journal.close();
  }
}
