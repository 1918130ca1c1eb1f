// bin/aiython's first file (dist/early.cjs, CommonJS, bundled on its own by build.mjs): installs
// the loader that hands V8 its cached data for the files of dist/ (code-cache.ts), then loads
// dist/early.js (early-entry.ts) through it, which starts the interpreter and then the CLI.
// Only what the loader needs is here: everything else comes through the code cache.

import { installCodeCache, type CommonJsModuleClass } from "./code-cache.js";

installCodeCache(__dirname, module.constructor as unknown as CommonJsModuleClass);
require("./early.js");
