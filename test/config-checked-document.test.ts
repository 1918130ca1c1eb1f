// SPEC §7, §12: aiython.toml that passed the schema is kept (`.aiython/cache/config.json`) and
// not parsed or validated again while its text and the build are the same; anything else about
// the stamp (another text, build or file, garbage, the cache turned off) means the file is read
// as if for the first time, so a fault always gets the parser's or the schema's message.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { loadConfig } from "../src/config/index.js";
import { ConfigError } from "../src/errors.js";
import { tempProject } from "./support/temp-project.js";

const VALID = 'version = 3\nmodel = { model = "local-model", api_base = "http://127.0.0.1:9/v1" }\nmax_concurrency = 3\n';
const stampOf = (root: string) => path.join(root, ".aiython", "cache", "config.json");
const load = (cwd: string, env: NodeJS.ProcessEnv = {}) => loadConfig({ scriptPath: "main.py", cwd, env });
const concurrency = async (cwd: string, env: NodeJS.ProcessEnv = {}) => (await load(cwd, env)).profiles.get("default")?.maxConcurrency;

/** Rewrites the stamp's document (the stamp is the only place a changed value could come from). */
function tamper(root: string, change: (stamp: Record<string, any>) => void): void {
  const stamp = JSON.parse(fs.readFileSync(stampOf(root), "utf8"));
  change(stamp);
  fs.writeFileSync(stampOf(root), JSON.stringify(stamp));
}

test("a valid file is stamped (0600), and the next load of the same text takes the stamp's document", async () => {
  const root = tempProject({ "aiython.toml": VALID });
  assert.equal(await concurrency(root), 3);
  assert.equal(fs.statSync(stampOf(root)).mode & 0o777, 0o600);
  tamper(root, (stamp) => (stamp.doc.max_concurrency = 7));
  assert.equal(await concurrency(root), 7, "the stamp was not used");
});

test("a changed file is parsed and validated again: its fault gets the schema's message", async () => {
  const root = tempProject({ "aiython.toml": VALID });
  await load(root);
  fs.writeFileSync(path.join(root, "aiython.toml"), VALID.replace("max_concurrency = 3", "max_concurrency = 0"));
  await assert.rejects(load(root), (error: unknown) => error instanceof ConfigError && /max_concurrency/.test(error.message));
});

test("a stamp of another build, another file or unreadable JSON is ignored and replaced", async () => {
  const root = tempProject({ "aiython.toml": VALID });
  await load(root);
  tamper(root, (stamp) => {
    stamp.doc.max_concurrency = 7;
    stamp.build = "0.0.0+another";
  });
  assert.equal(await concurrency(root), 3);
  tamper(root, (stamp) => {
    stamp.doc.max_concurrency = 7;
    stamp.file = path.join(root, "other.toml");
  });
  assert.equal(await concurrency(root), 3);
  fs.writeFileSync(stampOf(root), "{ not json");
  assert.equal(await concurrency(root), 3);
  assert.equal(JSON.parse(fs.readFileSync(stampOf(root), "utf8")).doc.max_concurrency, 3, "the stamp is written again");
});

test("AIYTHON_NO_CACHE=1 and cache = false keep no stamp", async () => {
  const off = tempProject({ "aiython.toml": VALID });
  await load(off, { AIYTHON_NO_CACHE: "1" });
  assert.equal(fs.existsSync(stampOf(off)), false);
  const noCache = tempProject({ "aiython.toml": `${VALID}cache = false\n` });
  await load(noCache);
  assert.equal(fs.existsSync(stampOf(noCache)), false);
});

test("an invalid file is never stamped", async () => {
  const root = tempProject({ "aiython.toml": "version = 3\nmax_concurrency = 9999\n" });
  await assert.rejects(load(root), ConfigError);
  assert.equal(fs.existsSync(stampOf(root)), false);
});
