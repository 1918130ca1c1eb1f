// Signals the user's shell left ignored (`nohup`, `trap '' HUP`, `cmd &` in a script): python3
// inherits SIG_IGN for them and is not ended by them, so the program must inherit them too
// (SPEC §2). Node resets every inherited SIG_IGN to SIG_DFL before any JavaScript runs (node.cc,
// ResetSignalHandlers), and its spawn resets the child's again, so the mask is read by
// bin/aiython while it is still a shell script (SigIgn of /proc/self/status, Linux) and handed
// over in AIYTHON_HOST_SIGIGN, which is removed here before anything is spawned: the program
// never sees it. The bridge sets SIG_IGN for each before the program runs (docs/protocol.md
// `init`); the host neither relays them (signal-relay.ts) nor may die of them, so it keeps a
// listener that does nothing for each one Node would otherwise die or stop of.

import os from "node:os";

const VARIABLE = "AIYTHON_HOST_SIGIGN";
/** Signals Node must not or cannot listen for, and those whose default ends nothing. */
const NOT_LISTENED = new Set(["SIGKILL", "SIGSTOP", "SIGBUS", "SIGFPE", "SIGILL", "SIGSEGV", "SIGCHLD", "SIGCONT", "SIGURG", "SIGWINCH", "SIGPIPE", "SIGXFSZ"]);
const NEVER_IGNORED = new Set([os.constants.signals.SIGKILL, os.constants.signals.SIGSTOP]);

let taken: number[] | null = null;

/** The signal numbers ignored when aiython started; takes them out of `env` (idempotent). */
export function takeInheritedSignals(env: NodeJS.ProcessEnv): number[] {
  if (taken) return taken;
  const mask = /^[0-9a-f]{1,16}$/i.test(env[VARIABLE] ?? "") ? BigInt(`0x${env[VARIABLE]}`) : 0n;
  delete env[VARIABLE];
  taken = [];
  for (let n = 1; n <= 64; n++) {
    if ((mask >> BigInt(n - 1)) & 1n && !NEVER_IGNORED.has(n)) taken.push(n);
  }
  return taken;
}

/** The names Node knows of these numbers, for the signal relay. */
export function signalNames(numbers: readonly number[]): Set<NodeJS.Signals> {
  const byNumber = new Map(Object.entries(os.constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));
  return new Set(numbers.flatMap((n) => (byNumber.has(n) ? [byNumber.get(n)!] : [])));
}

/** From now on the host outlives these signals, as python3 would (idempotent per signal). */
export function outliveSignals(numbers: readonly number[]): void {
  for (const name of signalNames(numbers)) {
    if (!NOT_LISTENED.has(name) && !process.listeners(name).includes(ignore)) process.on(name, ignore);
  }
}

function ignore(): void {}
