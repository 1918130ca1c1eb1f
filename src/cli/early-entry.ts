// Entry of bin/aiython, built as CommonJS (dist/early.cjs): start the interpreter for a plain run
// first, then load the CLI and hand it the started process. Both paths below are
// as seen from dist/: the package root is one folder up, and `./cli.js` is the bundle of
// src/cli/main.ts (kept external by build.mjs).

import path from "node:path";
import { installCodeCache, type CommonJsModuleClass } from "./code-cache.js";
import { earlyStart, handOff } from "./early-start.js";
import { protectHostStdio } from "./host-stdio.js";
import { outliveSignals, takeInheritedSignals } from "./inherited-signals.js";

const argv = process.argv.slice(2);
const ignoredSignals = takeInheritedSignals(process.env); // before anything is spawned
outliveSignals(ignoredSignals);
const bridge = earlyStart(argv, path.resolve(__dirname, "..", "bridge-py"), ignoredSignals);
if (bridge) protectHostStdio(); // a program runs: nothing may turn its fds non-blocking
handOff({ argv, bridge, ignoredSignals });
// dist/cli.js exists only in the build (CommonJS, like every file of dist/: build.mjs); it and
// the files it loads come with V8's code cache.
installCodeCache(__dirname, module.constructor as unknown as CommonJsModuleClass);
require("./cli.js");
