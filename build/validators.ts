// The validators the built CLI carries as ajv standalone code (build/standalone-validators.mjs),
// each in place of a source-form module that compiles the same schemas with the same options when
// imported. `schemas` maps the module's exports to their schemas; with `record`, the module
// instead exports one object of that name whose members are the validators, keyed like `schemas`.

import { CONFIG_AJV_OPTIONS, CONFIG_SCHEMA } from "../src/config/schema.js";
import { TOOL_AJV_OPTIONS, TOOL_NAMES, validationSchema } from "../src/invocation/tools.js";

export interface StandaloneSpec {
  /** The source-form module replaced in the bundle, relative to the package root. */
  module: string;
  options: Record<string, unknown>;
  schemas: Record<string, object>;
  record?: string;
}

export const STANDALONE_VALIDATORS: StandaloneSpec[] = [
  { module: "src/config/config-validator.ts", options: CONFIG_AJV_OPTIONS, schemas: { validateConfig: CONFIG_SCHEMA } },
  {
    module: "src/invocation/tool-validators.ts",
    options: TOOL_AJV_OPTIONS,
    schemas: Object.fromEntries(TOOL_NAMES.map((name) => [name, validationSchema(name)])),
    record: "TOOL_VALIDATORS",
  },
];
