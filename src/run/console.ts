// The interactive console (SPEC §2) as a run, and CPython's answers about itself (-V): today
// CPython's own, in the chosen interpreter (recovery/bridge/console-process.ts).

export { runInterpreter } from "../recovery/bridge/console-process.js";
