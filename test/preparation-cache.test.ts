// The preparation cache end to end (SPEC §4.1), with the built CLI: a second run of an unchanged
// program asks the host for no plan (`parse` 0 in --stats) and prints the same; a corrupt entry
// (truncated, garbage, wrong checksum, another format) is rebuilt without a word; a full disk, an
// unwritable folder or a file where the folder goes costs the program nothing; `cache = false`,
// AIYTHON_NO_CACHE and PYTHONDONTWRITEBYTECODE write nothing; a changed source is a miss; project
// modules and an entry program's compile warnings match python3 cold and warm. The environment
// drops PYTHONDONTWRITEBYTECODE (some machines set it) unless a test sets it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { makeUnwritable, tempProject } from "./support/journal-helpers.js";
import { aiythonLines, modelEnv, runIn, standIn, TICKETS_STDOUT, ticketsProject } from "./support/observe-e2e.js";
import { CLI, python, type Ran } from "./support/run-cli.js";

const cacheOf = (root: string) => path.join(root, ".aiython", "cache");
function entriesOf(root: string): string[] {
  try {
    return fs.readdirSync(cacheOf(root)).filter((name) => name.endsWith(".prep"));
  } catch {
    return []; // no folder, or a file where it goes
  }
}

function env(url: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base = modelEnv(url, extra);
  if (!("PYTHONDONTWRITEBYTECODE" in extra)) delete base.PYTHONDONTWRITEBYTECODE;
  return base;
}

/** The run's `parse` seconds from --stats=json, and its stderr without the stats line. */
function parsed(ran: Ran): { parse: number; rest: string } {
  const line = aiythonLines(ran.stderr).find((l) => l.startsWith("aiython stats: {"));
  assert.ok(line, ran.stderr);
  const rest = ran.stderr
    .split("\n")
    .filter((l) => l !== line)
    .join("\n");
  return { parse: JSON.parse(line.slice("aiython stats: ".length)).run.parse_seconds, rest };
}

async function tickets(root: string, url: string, extra: Record<string, string> = {}): Promise<{ parse: number; rest: string }> {
  const ran = await runIn(root, ["--stats=json", "--no-journal", "tickets.py"], env(url, extra));
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(ran.stdout, TICKETS_STDOUT);
  return parsed(ran);
}

test("a second run of tickets.py plans nothing: parse 0, the same output, one entry", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const cold = await tickets(root, model.url);
    assert.ok(cold.parse > 0, "the first run plans the program");
    assert.equal(entriesOf(root).length, 1);
    for (let run = 0; run < 2; run++) {
      const warm = await tickets(root, model.url);
      assert.equal(warm.parse, 0, "no plan request: the frontend is never loaded");
      assert.equal(warm.rest, "");
    }
    assert.match(fs.readFileSync(path.join(root, ".aiython", ".gitignore"), "utf8"), /^\*$/m);
  } finally {
    await model.close();
  }
});

const CORRUPTIONS: Record<string, (blob: Buffer) => Buffer> = {
  truncated: (blob) => blob.subarray(0, 40),
  "truncated payload": (blob) => blob.subarray(0, blob.length - 7),
  empty: () => Buffer.alloc(0),
  garbage: (blob) => Buffer.from(blob.map((_, i) => (i * 131 + 7) & 0xff)),
  // A payload marshal still reads (a block's text changed, same length): only the checksum tells.
  "wrong checksum": (blob) => {
    const at = blob.indexOf("classify this ticket");
    assert.ok(at > 0, "the entry holds the block's text");
    return Buffer.concat([blob.subarray(0, at), Buffer.from("classifx this ticket"), blob.subarray(at + 20)]);
  },
  "another format version": (blob) => Buffer.concat([blob.subarray(0, 4), Buffer.from([blob[4] + 1]), blob.subarray(5)]),
};

test("a corrupt entry is ignored and rebuilt: the output is the same and nothing is said", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    await tickets(root, model.url);
    const entry = path.join(cacheOf(root), entriesOf(root)[0]);
    const good = fs.readFileSync(entry);
    for (const [name, corrupt] of Object.entries(CORRUPTIONS)) {
      fs.writeFileSync(entry, corrupt(good));
      const rebuilt = await tickets(root, model.url);
      assert.ok(rebuilt.parse > 0, `${name}: the corrupt entry was not used`);
      assert.equal(rebuilt.rest, "", `${name}: nothing on stderr but the stats`);
      assert.deepEqual(fs.readFileSync(entry), good, `${name}: the entry is rewritten as it was`);
      assert.equal((await tickets(root, model.url)).parse, 0, `${name}: the rebuilt entry is used`);
    }
  } finally {
    await model.close();
  }
});

test("a changed source is a miss, and the old entry stays until the bound evicts it", async () => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    await tickets(root, model.url);
    const file = path.join(root, "tickets.py");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("print(queues)", "print(queues)  # routed"));
    const changed = await tickets(root, model.url);
    assert.ok(changed.parse > 0);
    assert.equal(entriesOf(root).length, 2);
    assert.equal((await tickets(root, model.url)).parse, 0);
  } finally {
    await model.close();
  }
});

/** Runs `script` (sh) in a new user and mount namespace, or returns null where that is not allowed.
 * Asynchronously: the stand-in model answers from this process. */
async function inNamespace(script: string, scriptEnv: NodeJS.ProcessEnv): Promise<{ status: number | undefined; stderr: string } | null> {
  const probe = await execa("unshare", ["--user", "--map-root-user", "--mount", "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"], { reject: false });
  if (probe.exitCode !== 0) return null;
  const ran = await execa("unshare", ["--user", "--map-root-user", "--mount", "sh", "-ec", script], { reject: false, env: scriptEnv, extendEnv: false, timeout: 120_000 });
  return { status: ran.exitCode, stderr: String(ran.stderr) };
}

test("a full disk: the run is unaffected, nothing is said, no temp file is left (a 4 KiB tmpfs, filled)", async (t) => {
  const root = ticketsProject();
  const model = await standIn();
  try {
    const cache = cacheOf(root);
    fs.mkdirSync(cache, { recursive: true });
    const out = path.join(root, "out");
    const runs = [1, 2].map((n) => `${JSON.stringify(CLI)} --no-journal tickets.py > ${out}.${n}.stdout 2> ${out}.${n}.stderr || echo $? > ${out}.${n}.status`).join("\n");
    const script = [
      `cd ${JSON.stringify(root)}`,
      `mount -t tmpfs -o size=4k tmpfs ${JSON.stringify(cache)}`,
      `dd if=/dev/zero of=${JSON.stringify(path.join(cache, "fill"))} bs=4096 count=1 2>/dev/null || true`,
      runs,
      `ls -A ${JSON.stringify(cache)} > ${out}.listing`,
    ].join("\n");
    const ran = await inNamespace(script, env(model.url));
    if (ran === null) return t.skip("no user and mount namespaces here (unshare)");
    assert.equal(ran.status, 0, ran.stderr);
    for (const n of [1, 2]) {
      assert.equal(fs.existsSync(`${out}.${n}.status`), false, `run ${n} failed: ${fs.readFileSync(`${out}.${n}.stderr`, "utf8")}`);
      assert.equal(fs.readFileSync(`${out}.${n}.stdout`, "utf8"), TICKETS_STDOUT);
      assert.equal(fs.readFileSync(`${out}.${n}.stderr`, "utf8"), "");
    }
    assert.equal(fs.readFileSync(`${out}.listing`, "utf8"), "fill\n", "only the filler: no entry, no temp file");
  } finally {
    await model.close();
  }
});

test("an unwritable cache folder, or a file where a folder goes: the run is unaffected, nothing is said", async (t) => {
  const model = await standIn();
  try {
    const unwritable = ticketsProject();
    fs.mkdirSync(cacheOf(unwritable), { recursive: true });
    const undo = makeUnwritable(cacheOf(unwritable));
    const layouts: [string, string][] = [];
    const fileForCache = ticketsProject();
    fs.mkdirSync(path.join(fileForCache, ".aiython"));
    fs.writeFileSync(cacheOf(fileForCache), "not a folder");
    layouts.push(["a file named .aiython/cache", fileForCache]);
    const fileForState = ticketsProject();
    fs.writeFileSync(path.join(fileForState, ".aiython"), "not a folder");
    layouts.push(["a file named .aiython", fileForState]);
    if (undo) layouts.push(["an unwritable .aiython/cache", unwritable]);
    else t.diagnostic("cannot make a folder unwritable here: that case is skipped");
    try {
      for (const [name, root] of layouts) {
        for (let run = 0; run < 2; run++) {
          const ran = await runIn(root, ["--no-journal", "tickets.py"], env(model.url));
          assert.equal(ran.exitCode, 0, `${name}: ${ran.stderr}`);
          assert.equal(ran.stdout, TICKETS_STDOUT, name);
          assert.equal(ran.stderr, "", name);
        }
        assert.deepEqual(entriesOf(root), [], name);
      }
    } finally {
      undo?.();
    }
  } finally {
    await model.close();
  }
});

test("cache = false and AIYTHON_NO_CACHE=1 write nothing; PYTHONDONTWRITEBYTECODE writes and reads (SPEC §4.1: it keeps __pycache__ out, not .aiython/)", async () => {
  const model = await standIn();
  try {
    const configured = ticketsProject();
    fs.writeFileSync(path.join(configured, "aiython.toml"), `version = 3\nmodel = "stand-in"\napi_base = "${model.url}"\ncache = false\n`);
    const off = await runIn(configured, ["--no-journal", "tickets.py"], env(model.url, { AIYTHON_MODEL: "" }));
    assert.equal(off.stdout, TICKETS_STDOUT, off.stderr);
    assert.equal(fs.existsSync(path.join(configured, ".aiython")), false);

    const flagged = ticketsProject();
    await tickets(flagged, model.url, { AIYTHON_NO_CACHE: "1" });
    assert.equal(fs.existsSync(path.join(flagged, ".aiython")), false);

    const bytecode = ticketsProject();
    await tickets(bytecode, model.url, { PYTHONDONTWRITEBYTECODE: "1" });
    assert.ok(
      fs.readdirSync(path.join(bytecode, ".aiython", "cache")).some((name) => name.endsWith(".prep")),
      "-B: the preparation is written",
    );
    assert.equal(fs.existsSync(path.join(bytecode, "__pycache__")), false, "-B: no __pycache__, as under python3");
    assert.equal((await tickets(bytecode, model.url, { PYTHONDONTWRITEBYTECODE: "1" })).parse, 0, "-B: the second run is warm");
  } finally {
    await model.close();
  }
});

const PROJECT = {
  "main.py": "import helpers\nfrom pkg import shapes\nprint(helpers.greet('cache'))\nprint(shapes.area(3, 4))\nprint(sorted(vars(shapes))[:3])\n",
  "helpers.py": "def greet(name):\n    message = f'hello {name}'\n    return message\n",
  "pkg/__init__.py": "VERSION = 1\n",
  "pkg/shapes.py": "def area(w, h):\n    result = w * h\n    return result\n",
};

test("project modules with a model configured: python3's output cold, warm and after a module changes", async () => {
  const root = tempProject(PROJECT);
  const ours = { cwd: root, env: env("http://127.0.0.1:9/v1") };
  const theirs = await python(["main.py"], { cwd: root, env: ours.env });
  assert.equal(theirs.exitCode, 0, theirs.stderr);
  for (let run = 0; run < 2; run++) {
    const ran = await runIn(root, ["main.py"], ours.env);
    assert.deepEqual([ran.stdout, ran.stderr, ran.exitCode], [theirs.stdout, theirs.stderr, theirs.exitCode], `run ${run + 1}`);
  }
  assert.equal(entriesOf(root).length, 4, "the entry program and its three modules");
  fs.writeFileSync(path.join(root, "pkg", "shapes.py"), PROJECT["pkg/shapes.py"].replace("w * h", "w * h * 2"));
  const changed = await runIn(root, ["main.py"], ours.env);
  assert.equal(changed.stdout, theirs.stdout.replace("12\n", "24\n"), changed.stderr);
  assert.equal(entriesOf(root).length, 5);
});

for (const [label, extra] of [
  ["PYTHONDONTWRITEBYTECODE unset", {}],
  ["PYTHONDONTWRITEBYTECODE=1", { PYTHONDONTWRITEBYTECODE: "1" }],
] as const) {
  test(`${label}: a module known to the cache's index by its stat is prepared again once edited to the same size at another time`, async () => {
    // The index takes a module whose size and mtime are the recorded ones for the text it read
    // then (as python3 takes a timestamp .pyc); a file changed in the last two seconds is never
    // recorded, so the module's times are set well in the past, as after a checkout long ago.
    const root = tempProject({ "main.py": "import values\nprint(values.VALUE)\n", "values.py": "VALUE = 1\n" });
    const module = path.join(root, "values.py");
    const longAgo = Date.now() / 1000 - 1000;
    fs.utimesSync(module, longAgo, longAgo);
    const ours = env("http://127.0.0.1:9/v1", extra);
    for (let run = 0; run < 2; run++) assert.equal((await runIn(root, ["main.py"], ours)).stdout, "1\n", `run ${run + 1}`);
    assert.ok(fs.existsSync(path.join(cacheOf(root), "index")), "the first run recorded what it read");
    fs.writeFileSync(module, "VALUE = 2\n");
    fs.utimesSync(module, longAgo + 5, longAgo + 5);
    for (let run = 0; run < 2; run++) assert.equal((await runIn(root, ["main.py"], ours)).stdout, "2\n", `edited, run ${run + 1}`);
  });
}

test("under -v, what CPython's loader says of a project module's bytecode is said as python3 says it, written or current", async () => {
  const root = tempProject(PROJECT);
  const ourEnv = env("http://127.0.0.1:9/v1");
  const said = (stderr: string) =>
    stderr
      .split("\n")
      .filter((line) => line.includes(`${root}/`) && !line.includes("main.py"))
      .sort();
  for (const state of ["written", "current"]) {
    fs.rmSync(path.join(root, ".aiython"), { recursive: true, force: true });
    if (state === "written") for (const dir of [root, path.join(root, "pkg")]) fs.rmSync(path.join(dir, "__pycache__"), { recursive: true, force: true });
    const theirs = await python(["-v", "main.py"], { cwd: root, env: ourEnv });
    if (state === "written") for (const dir of [root, path.join(root, "pkg")]) fs.rmSync(path.join(dir, "__pycache__"), { recursive: true, force: true });
    const ran = await runIn(root, ["-v", "main.py"], ourEnv);
    assert.equal(ran.stdout, theirs.stdout, ran.stderr);
    assert.ok(
      said(theirs.stderr).some((line) => line.includes(state === "written" ? "created" : "matches")),
      theirs.stderr,
    );
    assert.deepEqual(said(ran.stderr), said(theirs.stderr), state);
  }
});

test("an entry program's compile warnings are shown on every run, as python3 shows them", async () => {
  const root = tempProject({ "warns.py": "x = 5\nprint(x is 5)\nprint('\\d')\n" });
  const ourEnv = env("http://127.0.0.1:9/v1");
  const theirs = await python(["warns.py"], { cwd: root, env: ourEnv });
  assert.match(theirs.stderr, /SyntaxWarning/);
  for (let run = 0; run < 2; run++) {
    const ran = await runIn(root, ["warns.py"], ourEnv);
    assert.deepEqual([ran.stdout, ran.stderr], [theirs.stdout, theirs.stderr], `run ${run + 1}`);
  }
  assert.equal(entriesOf(root).length, 1);
});
