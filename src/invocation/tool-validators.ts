// The compiled validators of the tools' static argument schemas (tools.ts), one per tool name.
// This file is the source form, which ajv compiles when it is imported (tests run it under tsx).
// The built CLI never contains it: build.mjs puts ajv's standalone code for the same schemas and
// options in its place, so the first AI block neither loads ajv's compiler nor compiles schemas.

import { Ajv, type ValidateFunction } from "ajv";
import { TOOL_AJV_OPTIONS, TOOL_NAMES, validationSchema, type ToolName } from "./tools.js";

const ajv = new Ajv(TOOL_AJV_OPTIONS);

export const TOOL_VALIDATORS = Object.fromEntries(TOOL_NAMES.map((name) => [name, ajv.compile(validationSchema(name))])) as Readonly<Record<ToolName, ValidateFunction>>;
