// Entry of bin/aiython, built as CommonJS (dist/early.cjs): start the interpreter for a plain run
// first, then load the CLI (an ES module) and hand it the started process.

import path from "node:path";
import { earlyStart, handOff } from "./early-start.js";

const argv = process.argv.slice(2);
handOff({ argv, bridge: earlyStart(argv, path.resolve(__dirname, "..", "bridge-py")) });
void import("./cli.js");
