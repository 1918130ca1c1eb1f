// Build-time JSON Schema validators (used by build.mjs and by the tests that compare them with the
// source form). build/validators.ts lists, for each source-form module that compiles schemas with
// ajv at import, the schemas and options; here ajv compiles them once and writes its standalone
// code, and an esbuild plugin puts that code in place of the module in the bundle. The built CLI
// then carries plain validation functions: neither ajv's compiler nor a compile at run time.

import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { importTypeScript } from "./import-typescript.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The specs of build/validators.ts, evaluated from the TypeScript sources. */
export async function loadSpecs() {
  return (await importTypeScript("build/validators.ts")).STANDALONE_VALIDATORS;
}

/** ES module source that exports the spec's validators as its source-form module does. */
export function standaloneModule(spec) {
  const ajv = new Ajv.default({ ...spec.options, code: { source: true, esm: true } });
  const names = Object.keys(spec.schemas);
  for (const name of names) ajv.addSchema(spec.schemas[name], name);
  const exportName = (name, i) => (spec.record ? `validator${i}` : name);
  const code = standaloneCode.default(ajv, Object.fromEntries(names.map((name, i) => [exportName(name, i), name])));
  if (!spec.record) return code;
  const members = names.map((name, i) => `${JSON.stringify(name)}: ${exportName(name, i)}`).join(", ");
  return `${code}\nexport const ${spec.record} = { ${members} };\n`;
}

/**
 * An esbuild plugin that loads each spec's module as its generated standalone code. A spec whose
 * module the bundle never reached fails the build: the module was moved or renamed, and the source
 * form (ajv compiling at run time) must not ship unnoticed in its place.
 */
export function standaloneValidatorsPlugin(specs) {
  const byFile = new Map(specs.map((spec) => [path.join(ROOT, spec.module), spec]));
  const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const filter = new RegExp(`^(${[...byFile.keys()].map(escapeRegExp).join("|")})$`);
  return {
    name: "standalone-validators",
    setup(on) {
      const loaded = new Set();
      on.onStart(() => loaded.clear());
      on.onLoad({ filter }, (args) => {
        const spec = byFile.get(args.path);
        loaded.add(args.path);
        return { contents: standaloneModule(spec), loader: "js", resolveDir: path.dirname(args.path) };
      });
      on.onEnd((result) => {
        const missed = [...byFile.keys()].filter((file) => !loaded.has(file));
        if (missed.length > 0 && result.errors.length === 0) {
          throw new Error(`standalone validators: the bundle never loaded ${missed.map((f) => path.relative(ROOT, f)).join(", ")}`);
        }
      });
    },
  };
}
