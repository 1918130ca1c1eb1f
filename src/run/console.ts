// The interactive console (SPEC §2) as a run: today CPython's own console in the chosen
// interpreter (recovery/bridge/console-process.ts).

export { runConsole } from "../recovery/bridge/console-process.js";
