// bin/aiython's first file (dist/early.cjs, CommonJS, bundled on its own by build.mjs): for a plain
// program run it starts the interpreter first (early-spawn.ts: the signals the shell left ignored
// are taken and outlived before, as python3 keeps them), so that Python's start-up overlaps with
// everything else; then it installs the loader that hands V8 its cached data for the files of
// dist/ (code-cache.ts) and loads dist/early.js (early-entry.ts) through it, which adopts the
// interpreter and loads the CLI. Only what those steps need is here: everything else comes
// through the code cache.

import path from "node:path";
import { installCodeCache, type CommonJsModuleClass } from "./code-cache.js";
import { EARLY_START, startInterpreter, type EarlySpawn } from "./early-spawn.js";
import { outliveSignals, takeInheritedSignals } from "./inherited-signals.js";

const argv = process.argv.slice(2);
const ignoredSignals = takeInheritedSignals(process.env); // before anything is spawned
outliveSignals(ignoredSignals);
const early: EarlySpawn = { argv, ignoredSignals, started: startInterpreter(argv, path.resolve(__dirname, "..", "bridge-py"), process.env) };
(globalThis as Record<string, unknown>)[EARLY_START] = early;
installCodeCache(__dirname, module.constructor as unknown as CommonJsModuleClass);
require("./early.js");
