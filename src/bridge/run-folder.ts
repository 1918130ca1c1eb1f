// The run folder (SPEC §8, docs/protocol.md "Child processes"): where the program's child
// processes find the host. Made at the bridge's first `children` request, never before, under
// the system's temporary folder with mode 0700 (mkdtemp's), so only the user can reach it:
//
//   sock      a Unix socket; each child connects and says hello with the secret (child-link.ts)
//   secret    the run's secret, mode 0600; a spawned child reads it (its argv names the folder)
//   python    a link to bridge-py/aiython_bridge/start/launcher: multiprocessing's executable
//   launch    the launcher's interpreter and boot script, one per line
//
// A Unix socket rather than TCP: loopback only by construction, guarded by the folder's mode,
// no port to find. A secret on top of the mode, so that another process of the same user (another
// run, anything handed the folder's name) cannot join this run. Children never get it through
// argv or the environment: fork children inherit it in memory, spawned ones read it from here.
// `close` ends every child's link and removes the folder.

import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ChildLink } from "./child-link.js";

export interface RunFolderOptions {
  bridgeDir: string;
  /** The interpreter spawned children run (the program's sys.executable). */
  executable: string;
  /** A child that proved it belongs to the run. */
  onChild(link: ChildLink): void;
}

export class RunFolder {
  private readonly links = new Set<ChildLink>();
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    readonly dir: string,
    readonly secret: string,
    private readonly server: net.Server,
  ) {}

  static async open(options: RunFolderOptions): Promise<RunFolder> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "aiython-run-"));
    const secret = randomBytes(32).toString("hex");
    await fs.writeFile(path.join(dir, "secret"), `${secret}\n`, { mode: 0o600 });
    const boot = path.join(options.bridgeDir, "aiython_bridge", "start", "importlib_bootstrap.py");
    await fs.writeFile(path.join(dir, "launch"), `${options.executable}\n${boot}\n`, { mode: 0o600 });
    await fs.symlink(path.join(options.bridgeDir, "aiython_bridge", "start", "launcher"), path.join(dir, "python"));
    const server = net.createServer();
    const folder = new RunFolder(dir, secret, server);
    server.on("connection", (socket) => folder.accept(socket, options));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path.join(dir, "sock"), () => resolve());
    });
    server.unref();
    return folder;
  }

  get children(): readonly ChildLink[] {
    return [...this.links];
  }

  /** The run is over: every child's link ends, the socket closes and the folder goes. */
  async close(): Promise<void> {
    for (const link of this.links) link.end();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) if (![...this.links].some((link) => link.owns(socket))) socket.destroy();
    await closed;
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  private accept(socket: net.Socket, options: RunFolderOptions): void {
    const link = new ChildLink(socket, this.secret, {
      accepted: (accepted) => {
        this.links.add(accepted);
        void accepted.ended.then(() => this.links.delete(accepted));
        options.onChild(accepted);
      },
    });
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.on("error", () => undefined);
    void link;
  }
}
