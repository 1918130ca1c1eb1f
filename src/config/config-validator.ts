// The compiled validator of aiython.toml's schema (schema.ts). This file is the source form, which
// ajv compiles when it is imported (tests run it under tsx). The built CLI never contains it:
// build.mjs puts ajv's standalone code for the same schema and options in its place, so a
// configured start-up neither loads ajv's compiler nor compiles the schema.

import { Ajv, type ValidateFunction } from "ajv";
import { CONFIG_AJV_OPTIONS, CONFIG_SCHEMA } from "./schema.js";

export const validateConfig: ValidateFunction = new Ajv(CONFIG_AJV_OPTIONS).compile(CONFIG_SCHEMA);
