// The built CLI validates aiython.toml and tool arguments with ajv standalone code generated at
// build time (build/standalone-validators.mjs) in place of the source-form modules, which compile
// the same schemas when imported. These tests bundle the generated code as build.mjs does and
// check that it answers exactly like the source form — the same verdict and the same error
// objects, hence the same messages — for every invalid configuration fixture and for tool
// arguments of every kind of fault; and that a spec whose module the bundle never reaches fails
// the build instead of shipping the run-time compiler unnoticed.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { build } from "esbuild";
import { parse } from "smol-toml";
import type { ValidateFunction } from "ajv";
import { validateConfig } from "../src/config/config-validator.js";
import { TOOL_VALIDATORS } from "../src/invocation/tool-validators.js";
import { TOOL_NAMES } from "../src/invocation/tools.js";
// @ts-expect-error: a build script in JavaScript, without declarations
import { loadSpecs, standaloneModule, standaloneValidatorsPlugin } from "../build/standalone-validators.mjs";
import type { StandaloneSpec } from "../build/validators.js";
import { ROOT } from "./support/run-cli.js";

const specs: StandaloneSpec[] = await loadSpecs();
const specFor = (module: string) => specs.find((spec) => spec.module === module) as StandaloneSpec;

/** The generated module, bundled as build.mjs bundles it (its runtime helpers resolved). */
async function generated(module: string): Promise<Record<string, unknown>> {
  const out = await build({
    stdin: { contents: standaloneModule(specFor(module)), resolveDir: path.join(ROOT, path.dirname(module)), loader: "js" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

function sameAnswers(source: ValidateFunction, built: ValidateFunction, data: unknown, label: string): boolean {
  const verdict = source(data);
  assert.equal(built(data), verdict, `${label}: verdict`);
  assert.deepEqual(built.errors ?? null, source.errors ?? null, `${label}: errors`);
  return verdict;
}

test("aiython.toml: the standalone validator answers every fixture exactly as the source form", async () => {
  const built = (await generated("src/config/config-validator.ts")).validateConfig as ValidateFunction;
  const dir = path.join(ROOT, "test", "fixtures", "config", "invalid");
  let invalid = 0;
  let checked = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".toml"))) {
    let doc: unknown;
    try {
      doc = parse(readFileSync(path.join(dir, name), "utf8"));
    } catch {
      continue; // a TOML syntax fixture never reaches the schema
    }
    checked += 1;
    if (!sameAnswers(validateConfig, built, doc, name)) invalid += 1;
  }
  const valid = {
    version: 3,
    model: [{ model: "openai/a", api_base: "https://h/v1", api_key_env: "KEY" }, "ollama/b"],
    permissions: ["network", "execute_code"],
    profiles: { fast: { model: "ollama/c", timeout: 5, max_concurrency: 8 } },
  };
  assert.equal(sameAnswers(validateConfig, built, valid, "a full valid document"), true);
  assert.ok(checked >= 30 && invalid >= 25, `fixtures reached the schema: ${checked}, rejected by it: ${invalid}`);
});

test("tool arguments: the standalone validators answer exactly as the source form, for every tool", async () => {
  const built = (await generated("src/invocation/tool-validators.ts")).TOOL_VALIDATORS as Record<string, ValidateFunction>;
  assert.deepEqual(Object.keys(built).sort(), [...TOOL_NAMES].sort());
  const cases: unknown[] = [
    {},
    { unknown: 1 },
    { code: 3, name: null, handle: "object-x", depth: 9, limit: 0, result_id: "r".repeat(500) },
    { code: "x", result_id: "r1" },
    { name: "n", handle: "object-2" },
    { handle: "object-1", depth: 2, limit: 10 },
    { frame: "elsewhere" },
    { frame: "origin" },
    { outcome: { kind: "literal", value: [1, "a"] } },
    { outcome: { kind: "guess" } },
    { outcome: { kind: "error", reason: 4, extra: true } },
    { action: "retry" },
    { action: "complete", outcome: { kind: "expression", code: "x + 1" }, explanation: "why" },
    { action: "later" },
  ];
  for (const name of TOOL_NAMES) {
    for (const [i, args] of cases.entries()) sameAnswers(TOOL_VALIDATORS[name], built[name], args, `${name} case ${i}`);
  }
});

test("a spec whose module the bundle never loads fails the build", async () => {
  const missing: StandaloneSpec = { module: "src/config/no-such-validator.ts", options: {}, schemas: { validateNothing: { type: "object" } } };
  await assert.rejects(
    build({
      stdin: { contents: "export const x = 1;", resolveDir: ROOT },
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      logLevel: "silent",
      plugins: [standaloneValidatorsPlugin([missing])],
    }),
    /the bundle never loaded src\/config\/no-such-validator\.ts/,
  );
});
