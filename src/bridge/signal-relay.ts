// Signals while the program runs (SPEC §2, §4.1). Ctrl-C in a terminal reaches the whole
// foreground process group, so the interpreter gets its own SIGINT and raises KeyboardInterrupt;
// the host relays a SIGINT only when it does not stand in its terminal's foreground, where it
// was sent to aiython alone (terminal-group.ts), or to a process group without a terminal.
// SIGTERM and SIGHUP are relayed; a child still alive after the grace period is killed.
// A signal aiython inherited as ignored (nohup, `trap '' HUP`) is neither listened for nor
// relayed: the program ignores it too, as under python3 (src/cli/inherited-signals.ts).

import os from "node:os";
import type { BridgeProcess } from "./bridge-process.js";
import { KILL_GRACE_MS, SIGINT_RELAY_DELAY_MS } from "../defaults.js";
import { inTerminalForeground } from "./terminal-group.js";

export interface SignalRelay {
  /** The signal that ended the run from outside (SIGTERM/SIGHUP relayed), if any. */
  readonly relayed: NodeJS.Signals | null;
  /** A SIGINT reached the host (Ctrl-C at the terminal reaches the whole process group). */
  readonly interrupted: boolean;
  dispose(): void;
}

export interface RelayOptions {
  /** Numbers of the signals inherited as ignored. */
  ignored?: readonly number[];
  graceMs?: number;
}

const RELAYED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export function relaySignals(bridge: BridgeProcess, options: RelayOptions = {}): SignalRelay {
  const graceMs = options.graceMs ?? KILL_GRACE_MS;
  let relayed: NodeJS.Signals | null = null;
  let interrupted = false;
  let killTimer: NodeJS.Timeout | null = null;

  const onInt = () => {
    interrupted = true;
    if (inTerminalForeground()) return;
    // Sent to the whole process group, the interpreter got it too and most often ends at once:
    // a program that has ended is not interrupted again.
    setTimeout(() => bridge.kill("SIGINT"), SIGINT_RELAY_DELAY_MS).unref();
  };
  const relay = (signal: NodeJS.Signals) => () => {
    relayed = signal;
    bridge.kill(signal);
    if (!killTimer) {
      // What the program started goes with it: nothing is left holding the caller's pipes.
      killTimer = setTimeout(() => bridge.tree()?.signal("SIGKILL"), graceMs);
      killTimer.unref();
    }
  };
  const listeners = { SIGINT: onInt, SIGTERM: relay("SIGTERM"), SIGHUP: relay("SIGHUP") };
  const ignored = new Set(options.ignored ?? []);
  const listened = RELAYED.filter((signal) => !ignored.has(os.constants.signals[signal]));
  for (const signal of listened) process.on(signal, listeners[signal]);

  return {
    get relayed() {
      return relayed;
    },
    get interrupted() {
      return interrupted;
    },
    dispose() {
      for (const signal of listened) process.off(signal, listeners[signal]);
      if (killTimer) clearTimeout(killTimer);
    },
  };
}
