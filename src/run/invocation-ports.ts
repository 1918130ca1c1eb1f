// The ports one invocation gets, wrapped for the run (invocation-runner.ts): its model port holds
// the run's time limit while the model is waited for, and its frame port restricts the bridge's
// source guard for a profile without write_filesystem and keeps the spinner's line off the
// program's output.

import type { ProfileSettings } from "../config/index.js";
import type { FramePort } from "../invocation/ports.js";
import type { ModelPort } from "../model-port.js";
import type { Spinner } from "../observe/spinner.js";

/** Time waiting for the model does not count against the run's time limit (SPEC §9). */
export function held(model: ModelPort, holdClock: (() => () => void) | undefined): ModelPort {
  if (!holdClock) return model;
  return {
    async complete(request, options) {
      const release = holdClock();
      try {
        return await model.complete(request, options);
      } finally {
        release();
      }
    },
  };
}

/**
 * A profile without write_filesystem: the bridge's source guard refuses every file write of
 * this invocation's ops. The `restrict` op goes first, before the first op that runs code.
 */
export function restricted(frame: FramePort, profile: ProfileSettings): FramePort {
  if (profile.permissions.has("write_filesystem")) return frame;
  let restricted = false;
  return {
    op(name, args, signal) {
      // Ops of one pause are served in order, so restrict needs no answer before the next one.
      if (name !== "fail" && !restricted) {
        restricted = true;
        void frame.op("restrict", { denied: ["write_filesystem"] });
      }
      return frame.op(name, args, signal);
    },
  };
}

/**
 * The spinner's line never meets the program's output (SPEC §2): it is erased before every op
 * is sent (a tool's code may print), and a terminal op ends it for this invocation before the
 * program resumes. The writes are synchronous (cli/host-stdio.ts), so they reach the terminal
 * before the bridge sees the op.
 */
export function spinnerAware(frame: FramePort, spinner: Spinner, stop: () => void): FramePort {
  return {
    op(name, args, signal) {
      if (name === "finish" || name === "recover" || name === "fail") stop();
      spinner.erase();
      return frame.op(name, args, signal);
    },
  };
}
