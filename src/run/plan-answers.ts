// The host's answers to `plan` requests (docs/protocol.md) from every process of a run: the
// frontend plans the source with the asking interpreter as its oracle (plan-source.ts, loaded at
// the first request). For the first process's entry program, diagnostics end the run (exit 78,
// with a model configured), and a program the bridge will refuse with CPython's SyntaxError (no
// model, or a span that reads as mistyped Python: SPEC §4.3) leaves the line said after it
// (refused-spans.ts). A source with AI blocks warms the model client up while the program runs
// up to its first block (SPEC §12).

import type { ResolvedConfig } from "../config/index.js";
import { ConfigError, ExitStatus, type RunOutcome } from "../errors.js";
import type { PlanRequest, RunTarget } from "../bridge/protocol.js";
import type { RunClock } from "../observe/run-clock.js";
import type { PlanLink } from "./plan-source.js";
import { internalOutcome } from "./run-messages.js";

export interface PlanAnswerContext {
  target: RunTarget;
  clock: RunClock;
  config(): ResolvedConfig | null;
  /** Loads the model client in the background; null until the run has one. */
  warmUp(): void;
  /** A Ctrl-C reached the host. */
  interrupted(): boolean;
  /** Ends the run with this outcome (the interpreter is killed). */
  stop(outcome: RunOutcome): void;
}

export class PlanAnswers {
  /** The entry program's spans CPython refused that will not run as AI blocks: said after CPython's SyntaxError. */
  refusedLine: string | null = null;

  constructor(private readonly ctx: PlanAnswerContext) {}

  /** Plans a source for a process of the run (`first`: the run's first interpreter) and answers it. */
  async answer(link: PlanLink, message: PlanRequest, first: boolean): Promise<void> {
    const parsed = this.ctx.clock.parsing();
    const entry = message.entry && first && !message.interactive;
    const configured = this.ctx.config()?.modelConfigured ?? false;
    let fault: RunOutcome | null = null;
    try {
      const [{ planRequested }, { notPythonLine, typoLine }] = await Promise.all([import("./plan-source.js"), import("./refused-spans.js")]);
      const shownAs = entry && this.ctx.target.kind === "file" ? this.ctx.target.path : message.path;
      const planned = await planRequested(link, message, { shownAs });
      // SPEC §4.3: with no model the bridge refuses a program that does not compile with CPython's
      // SyntaxError (the console shows it too); the plan only counts what would be AI blocks with
      // a model, for the line said after it. With a model, a span that reads as mistyped Python
      // is refused the same way (the plan's typos).
      if (entry && planned.kind === "plan") this.refusedLine = configured ? typoLine(shownAs, planned.plan) : notPythonLine(shownAs, planned.plan);
      if (planned.kind === "diagnostics") {
        link.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: planned.message } });
        // Without a model, python3's SyntaxError comes first, whatever the directives say.
        if (configured) fault = { kind: "status", status: ExitStatus.config, message: planned.message };
      } else {
        link.send({ type: "result", id: message.id, ok: true, value: planned.plan });
        // A source with AI blocks will reach one: the model client loads while the program runs
        // up to it (SPEC §12). A program without blocks never loads it before it needs it.
        if (planned.plan.blocks.length > 0) this.ctx.warmUp();
      }
    } catch (error) {
      link.send({ type: "result", id: message.id, ok: false, error: { type: "plan_error", message: (error as Error).message } });
      // Ctrl-C while the frontend asked the interpreter to compile: the run was interrupted, and
      // ends as the interpreter did (SIGINT), not with an internal error.
      if (configured && !this.ctx.interrupted()) {
        fault = error instanceof ConfigError ? { kind: "status", status: error.exitStatus, message: error.message } : internalOutcome((error as Error).message);
      }
    } finally {
      parsed();
    }
    if (fault && entry) this.ctx.stop(fault); // the console shows it and goes on
  }

  /** The program was refused with CPython's SyntaxError (status 1): the outcome with the line that says why no AI block ran. */
  refusedOutcome(code: number | null): RunOutcome | null {
    if (this.refusedLine === null || code !== ExitStatus.uncaughtException) return null;
    return { kind: "status", status: code, message: this.refusedLine };
  }
}
