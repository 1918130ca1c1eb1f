// Recovery is never silent (SPEC §4.2): each decision that changes the program's course — a
// statement completed with or without a value, a retry, the rest of a compound statement's body
// skipped — is said on stderr when it happens, one `aiython:` line:
//
//   aiython: report.py:9: ValueError recovered: completed, skipping the rest of the for loop of line 5, its remaining iterations included (model: "row 2 has no amount")
//
// The bridge keeps an accepted `recover` without resuming (docs/protocol.md); this frame wrapper
// writes the line, synchronously (cli/host-stdio.ts: never through a handle Node opened on the
// program's descriptors), and only then sends `resume`, so the line is on the terminal before
// the program writes again. `recovery_notice` picks each (default), summary (one line at the
// end of the run) or off. A `reraise` changes nothing: the traceback carries the model's note.

import type { Outcome, PauseRequest } from "../bridge/protocol.js";
import type { RecoverAction } from "../invocation-record.js";
import type { FramePort } from "../invocation/ports.js";

export type RecoveryNoticeMode = "each" | "summary" | "off";

const MAX_EXPLANATION = 160;
const MAX_LISTED = 5;

export class RecoveryNotices {
  private readonly changes: string[] = [];

  constructor(
    private readonly mode: RecoveryNoticeMode,
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  /** The frame of one recovery invocation: an accepted `recover` is said, then the program resumes. */
  frame(frame: FramePort, request: PauseRequest): FramePort {
    return {
      op: async (name, args) => {
        const result = await frame.op(name, args);
        if (name !== "recover" || !result.ok) return result;
        try {
          this.said(request, args as RecoverArguments);
        } finally {
          await frame.op("resume", {});
        }
        return result;
      },
    };
  }

  /** The end-of-run line of `summary` mode; null when nothing was recovered or the mode is another. */
  summary(): string | null {
    if (this.mode !== "summary" || this.changes.length === 0) return null;
    const listed = this.changes.slice(0, MAX_LISTED).join("; ");
    const more = this.changes.length > MAX_LISTED ? `; and ${this.changes.length - MAX_LISTED} more` : "";
    const times = this.changes.length === 1 ? "once" : `${this.changes.length} times`;
    return `aiython: recovery changed the program's course ${times}: ${listed}${more}\n`;
  }

  private said(request: PauseRequest, args: RecoverArguments): void {
    const text = noticeText(request, args);
    if (text === null || this.mode === "off") return;
    if (this.mode === "each") this.write(`aiython: ${text}\n`);
    else this.changes.push(text.replace(/ \(model: .*\)$/s, ""));
  }
}

interface RecoverArguments {
  action: RecoverAction;
  outcome?: Outcome;
  explanation?: string;
}

/** The notice of an accepted decision: `file:line: Type recovered: what it changes (model: "…")`; null for `reraise`. */
export function noticeText(request: PauseRequest, args: RecoverArguments): string | null {
  const recovery = request.recovery;
  if (!recovery || args.action === "reraise") return null;
  const hasValue = args.outcome !== undefined && args.outcome.kind !== "none";
  let what: string;
  if (args.action === "retry") what = "retrying the statement";
  else if (hasValue) what = `completed with a value for ${request.target ?? "its target"}`;
  else if (recovery.complete_skips) what = `completed, skipping ${recovery.complete_skips}`;
  else if (request.target) what = `completed without a value (${request.target} not assigned)`;
  else what = "completed, skipping the rest of the statement";
  const explanation = oneLine(args.explanation ?? "");
  const model = explanation ? ` (model: "${explanation}")` : "";
  return `${request.location.file}:${recovery.line}: ${recovery.exception_type} recovered: ${what}${model}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_EXPLANATION ? `${flat.slice(0, MAX_EXPLANATION - 1)}…` : flat;
}
