// `--approve` (SPEC §9): before a call with effects runs, it is shown on the terminal and the
// user answers yes / no / yes to all for this block. The terminal is /dev/tty, opened by aiython
// itself, never the program's stdin or stdout (they may be pipes or files, and the program owns
// them). Without a terminal (no /dev/tty, as under a service or CI) every effect is refused, and
// one line on stderr says why. Prompts are asked one at a time (blocks in several threads may
// ask at once); "yes to all" covers the block's later calls for the rest of the run.
// The prompt is @inquirer/expand on streams opened on /dev/tty, loaded at the first question.
// Ctrl-C at the prompt is a Ctrl-C for the run: the terminal is in raw mode while it asks, so
// the host sends itself the SIGINT the terminal would have sent (the signal relay passes it on).

import fs from "node:fs";
import tty from "node:tty";
import type { ApprovalCall, ApprovalPort } from "../../invocation/ports.js";
import { approvalText } from "./approval-text.js";

export interface ApproverHooks {
  /** Before a prompt is drawn (erase the spinner, hold the time limit); returns what to undo after. */
  beforePrompt?: () => () => void;
  /** The one line shown when there is no terminal. */
  warn?: (line: string) => void;
}

type Answer = "yes" | "no" | "all";

export class TtyApprover implements ApprovalPort {
  private readonly approvedBlocks = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private noTerminal = false;

  constructor(
    private readonly hooks: ApproverHooks = {},
    private readonly device = "/dev/tty",
  ) {}

  approve(call: ApprovalCall): Promise<boolean> {
    const asked = this.queue.then(() => this.ask(call));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private async ask(call: ApprovalCall): Promise<boolean> {
    if (this.approvedBlocks.has(call.request.block_id)) return true;
    if (this.noTerminal) return false;
    const terminal = openTerminal(this.device);
    if (!terminal) {
      this.noTerminal = true;
      this.hooks.warn?.(`--approve: no terminal to ask on (${this.device} cannot be opened), so the model's effects are refused`);
      return false;
    }
    const undo = this.hooks.beforePrompt?.() ?? (() => undefined);
    try {
      terminal.output.write(`\n${approvalText(call)}\n`);
      const answer = await prompt(terminal);
      if (answer === "all") this.approvedBlocks.add(call.request.block_id);
      return answer !== "no";
    } finally {
      terminal.close();
      undo();
    }
  }
}

interface Terminal {
  input: tty.ReadStream;
  output: tty.WriteStream;
  close(): void;
}

function openTerminal(device: string): Terminal | null {
  let readFd = -1;
  let writeFd = -1;
  try {
    readFd = fs.openSync(device, "r");
    writeFd = fs.openSync(device, "w");
    if (!tty.isatty(readFd)) throw new Error("not a terminal");
  } catch {
    for (const fd of [readFd, writeFd]) if (fd >= 0) fs.closeSync(fd);
    return null;
  }
  const input = new tty.ReadStream(readFd);
  const output = new tty.WriteStream(writeFd);
  return {
    input,
    output,
    close() {
      if (input.isRaw) input.setRawMode(false);
      input.destroy();
      output.destroy();
    },
  };
}

async function prompt(terminal: Terminal): Promise<Answer> {
  const { default: expand } = await import("@inquirer/expand");
  try {
    return await expand(
      {
        message: "Allow it?",
        default: "n",
        choices: [
          { key: "y", name: "yes", value: "yes" as const },
          { key: "n", name: "no", value: "no" as const },
          { key: "a", name: "yes to all for this block", value: "all" as const },
        ],
      },
      { input: terminal.input, output: terminal.output },
    );
  } catch (error) {
    if ((error as Error).name === "ExitPromptError") process.kill(process.pid, "SIGINT");
    return "no";
  }
}
