// Terminals for tests: a tmux session on a private socket (so no other tmux on the machine is
// touched), driven with send-keys and read with capture-pane, as a person at a terminal would
// type and read. `Terminal` is the console's (its `line` waits for the screen to settle on a
// prompt before it returns, so keys are never typed ahead of the program); `tmuxPane` runs one
// command for the tests of questions asked on /dev/tty (SPEC §9 `--approve`) and reads the
// command's exit status from a file its shell writes.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";

export interface TmuxPane {
  screen(): Promise<string>;
  /** Waits until the screen matches, or fails after `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  keys(...keys: string[]): Promise<void>;
  /** The command's exit status, once it has ended. */
  status(ms?: number): Promise<number>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `command` (a shell command line) in `cwd` with `env` in a fresh 160×50 pane. */
export async function tmuxPane(cwd: string, command: string, env: NodeJS.ProcessEnv): Promise<TmuxPane> {
  const socket = path.join(cwd, ".tmux-socket");
  const statusFile = path.join(cwd, ".tmux-status");
  const script = path.join(cwd, ".tmux-run.sh");
  const exports = Object.entries(env)
    .filter(([key, value]) => value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    .map(([key, value]) => `export ${key}='${String(value).replaceAll("'", "'\\''")}'`);
  fs.writeFileSync(script, [...exports, `cd '${cwd}'`, command, `echo $? > '${statusFile}'`, "sleep 30"].join("\n"));
  const tmux = (...args: string[]) => execa("tmux", ["-S", socket, ...args], { env: { ...env, TMUX: "" } });
  await tmux("new-session", "-d", "-x", "160", "-y", "50", `sh '${script}'`);
  const pane: TmuxPane = {
    async screen() {
      return (await tmux("capture-pane", "-p", "-J")).stdout;
    },
    async waitFor(pattern, ms = 20_000) {
      const until = Date.now() + ms;
      for (;;) {
        const text = await pane.screen();
        if (pattern.test(text)) return text;
        if (Date.now() > until) throw new Error(`the screen never showed ${pattern}:\n${text}`);
        await sleep(100);
      }
    },
    async keys(...keys) {
      await tmux("send-keys", ...keys);
    },
    async status(ms = 20_000) {
      const until = Date.now() + ms;
      while (!fs.existsSync(statusFile) || fs.readFileSync(statusFile, "utf8").trim() === "") {
        if (Date.now() > until) throw new Error(`the command did not end:\n${await pane.screen()}`);
        await sleep(100);
      }
      return Number(fs.readFileSync(statusFile, "utf8").trim());
    },
    async close() {
      await tmux("kill-server").catch(() => undefined);
    },
  };
  return pane;
}

export function tmuxAvailable(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export class Terminal {
  private readonly socket: string;
  private readonly dir: string;
  private readonly name = "t";

  /** Runs `command` (a shell command line) in a 100×50 terminal; `done` marks its end on screen. */
  constructor(command: string, options: { cwd: string; env: Record<string, string> }) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-tmux-"));
    this.socket = path.join(this.dir, "sock");
    const env = Object.entries(options.env)
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(" ");
    const line = `cd ${shellQuote(options.cwd)} && env -i ${env} ${command}; echo "[exit $?]"; sleep 600`;
    this.tmux(["new-session", "-d", "-s", this.name, "-x", "100", "-y", "50", line]);
  }

  private tmux(args: string[]): string {
    return execFileSync("tmux", ["-S", this.socket, ...args], { encoding: "utf8" });
  }

  /** The screen, trailing blank lines and trailing spaces removed (as capture-pane gives them). */
  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", this.name]).replace(/\s+$/, "");
  }

  keys(...keys: string[]): void {
    this.tmux(["send-keys", "-t", this.name, ...keys]);
  }

  /** Waits until `test` holds for the screen (polling), or fails naming what it waited for. */
  async waitFor(test: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (test(screen)) return screen;
      if (Date.now() > until) throw new Error(`the terminal never showed ${what}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits for the screen to end with a console prompt (`>>>` or `...`) and to stay so briefly. */
  async prompt(): Promise<string> {
    const atPrompt = (s: string) => /(^|\n)(>>>|\.\.\.)$/.test(s);
    let screen = await this.waitFor(atPrompt, "a prompt");
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const again = this.screen();
      if (again === screen && atPrompt(again)) return again;
      screen = await this.waitFor(atPrompt, "a prompt");
    }
  }

  /** Types a line and presses Enter, then waits for the next prompt. */
  async line(text: string): Promise<string> {
    if (text !== "") this.keys("-l", text);
    this.keys("Enter");
    await new Promise((resolve) => setTimeout(resolve, 100));
    return this.prompt();
  }

  /** Waits for the command's end: the `[exit N]` line; returns N. */
  async exit(): Promise<number> {
    const screen = await this.waitFor((s) => /\[exit \d+\]$/.test(s), "the command's end");
    return Number(/\[exit (\d+)\]$/.exec(screen)![1]);
  }

  close(): void {
    try {
      this.tmux(["kill-server"]);
    } catch {
      // already gone
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
