// A terminal for tests that need one (SPEC §9 `--approve` asks on /dev/tty): a private tmux
// server on its own socket runs a command in a pane; the test reads the screen, types keys and
// waits for the command's exit status, which the pane's shell writes to a file.

import fs from "node:fs";
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
