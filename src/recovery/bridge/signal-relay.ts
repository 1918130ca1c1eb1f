// Signals while the program runs (SPEC §2, §4.1). Ctrl-C in a terminal reaches the whole
// foreground process group, so the interpreter gets its own SIGINT and raises KeyboardInterrupt;
// the host only relays a SIGINT that was sent to it alone (the bridge reports every SIGINT it
// receives on the notice descriptor, so a missing notice means it was not delivered).
// SIGTERM and SIGHUP are relayed; a child still alive after the grace period is killed.

import type { BridgeProcess } from "./bridge-process.js";
import { KILL_GRACE_MS, SIGINT_NOTICE_WAIT_MS } from "../../defaults.js";

export interface SignalRelay {
  /** The signal that ended the run from outside (SIGTERM/SIGHUP relayed), if any. */
  readonly relayed: NodeJS.Signals | null;
  dispose(): void;
}

export function relaySignals(bridge: BridgeProcess, graceMs = KILL_GRACE_MS): SignalRelay {
  let relayed: NodeJS.Signals | null = null;
  let killTimer: NodeJS.Timeout | null = null;

  const onInt = () => {
    if (Date.now() - bridge.lastSigintNotice < 2 * SIGINT_NOTICE_WAIT_MS) return;
    void bridge.waitForSigintNotice(SIGINT_NOTICE_WAIT_MS).then((delivered) => {
      if (!delivered) bridge.kill("SIGINT");
    });
  };
  const relay = (signal: NodeJS.Signals) => () => {
    relayed = signal;
    bridge.kill(signal);
    if (!killTimer) {
      killTimer = setTimeout(() => bridge.kill("SIGKILL"), graceMs);
      killTimer.unref();
    }
  };
  const onTerm = relay("SIGTERM");
  const onHup = relay("SIGHUP");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);

  return {
    get relayed() {
      return relayed;
    },
    dispose() {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      process.off("SIGHUP", onHup);
      if (killTimer) clearTimeout(killTimer);
    },
  };
}
