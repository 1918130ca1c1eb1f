// CPython's answers about itself (-V, --help-env…), from the chosen interpreter with no bridge
// (bridge/console-process.ts). The console itself is a run: target kind "console".

export { runInterpreter } from "../bridge/console-process.js";
