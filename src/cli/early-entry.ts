// Start-up of bin/aiython (dist/early.js, one entry of the split build, which dist/early.cjs loads
// through V8's code cache): adopt the interpreter dist/early.cjs started for a plain run (or start
// it now when started another way), then load the CLI (dist/cli.js, the bundle of
// src/cli/main.ts) and hand it the bridge. Being part of the split build, it shares its chunks
// (the bridge process, the channel, split-argv…) with the CLI, so each is loaded once.
// `__dirname` is dist/ (every file of dist/ is CommonJS).

import path from "node:path";
import { takeEarlySpawn } from "./early-spawn.js";
import { adoptInterpreter, earlyStart, handOff } from "./early-start.js";
import { protectHostStdio } from "./host-stdio.js";
import { outliveSignals, takeInheritedSignals } from "./inherited-signals.js";

const argv = process.argv.slice(2);
const spawned = takeEarlySpawn();
const bridgeDir = path.resolve(__dirname, "..", "bridge-py");
let bridge: ReturnType<typeof adoptInterpreter> | ReturnType<typeof earlyStart>;
let ignoredSignals: number[];
if (spawned) {
  ignoredSignals = spawned.ignoredSignals; // dist/early.cjs took them, and outlives them
  bridge = adoptInterpreter(spawned.started, bridgeDir, ignoredSignals);
} else {
  ignoredSignals = takeInheritedSignals(process.env); // before anything is spawned
  outliveSignals(ignoredSignals);
  bridge = earlyStart(argv, bridgeDir, ignoredSignals);
}
if (bridge) protectHostStdio(); // a program runs: nothing may turn its fds non-blocking
handOff({ argv, bridge, ignoredSignals });
void import("./main.js");
