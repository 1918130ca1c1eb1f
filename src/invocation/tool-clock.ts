// How long one frame op may run (SPEC §9): at most `tool_timeout` seconds, and never past the
// invocation's deadline. The clock's signal aborts when either passes, and the frame port then
// asks the bridge to interrupt the op (pause-coordinator.ts sends `interrupt`). `tool_timeout`
// reached first: the op answers ToolInterrupted, which the model gets as the tool error
// ToolTimeout and may work around. The deadline reached first: the invocation ends with a
// failure naming the tool (orchestrator.ts), as any wait the deadline cuts short.

import type { Deadline } from "./deadline.js";
import type { ToolResult } from "./prompt.js";
import { Stopper, type StopSignal } from "../stop-signal.js";

export interface ToolClock {
  /** Aborts when the op has run past its time. */
  readonly signal: StopSignal;
  dispose(): void;
}

/** Starts the clock of one frame op; `toolTimeoutSeconds` undefined: only the deadline bounds it. */
export function startToolClock(deadline: Deadline, toolTimeoutSeconds: number | undefined): ToolClock {
  const boundMs = toolTimeoutSeconds === undefined ? Number.POSITIVE_INFINITY : toolTimeoutSeconds * 1000;
  // Only a bound that comes before the deadline needs a clock of its own: at the deadline the
  // invocation ends anyway, and its message says so; until then the deadline's signal serves.
  if (boundMs >= deadline.remainingMs() || deadline.signal.aborted) return { signal: deadline.signal, dispose: () => undefined };
  const stopper = new Stopper();
  const abort = () => stopper.abort();
  deadline.signal.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, boundMs);
  return {
    signal: stopper.signal,
    dispose() {
      clearTimeout(timer);
      deadline.signal.removeEventListener("abort", abort);
    },
  };
}

/** The tool error of an op interrupted at `tool_timeout` (the bridge answered ToolInterrupted). */
export function toolTimeoutResult(name: string, seconds: number): ToolResult & { status: "error" } {
  return {
    status: "error",
    error: "ToolTimeout",
    message:
      `${name} did not return within ${seconds} s (tool_timeout) and was interrupted; what it did before stays done. ` +
      "Do less in one call (no long waits or loops), or raise tool_timeout in aiython.toml",
  };
}
