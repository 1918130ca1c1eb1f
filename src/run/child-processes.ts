// The program's child processes as part of the run (SPEC §8): the run folder, opened at the
// first `children` request from any process of the run, and each child that connects to it.
// A forked child is already running the program: its link is served like the first
// interpreter's (pauses, plans) from its first message. A spawned interpreter says
// what it runs in its hello and is answered `init` and `run` with the run's options, exactly as
// the first interpreter was. When the run ends every child's link ends: a child still running
// goes on without the host (what it was waiting for fails), as it would go on under python3.

import type { BridgeProcess } from "../bridge/bridge-process.js";
import type { ChildLink } from "../bridge/child-link.js";
import type { ChildrenRequest, HostMessage, RunOptions } from "../bridge/protocol.js";
import { PROTOCOL_VERSION } from "../bridge/protocol.js";
import type { RunFolder } from "../bridge/run-folder.js";
import { bridgeDir } from "../bridge/start-bridge.js";

/** Where a link's messages go once it is accepted; `ended` when its process has gone. */
export interface LinkServer {
  handle(link: ChildLink): { ended(): void };
}

export class ChildProcesses {
  private folder: Promise<RunFolder> | null = null;
  private readonly served: { ended(): void }[] = [];

  constructor(
    private readonly runOptions: () => RunOptions | null,
    private readonly server: LinkServer,
  ) {}

  /** Answers `children` (from the first interpreter or any child): the folder, made once. */
  answer(from: Pick<BridgeProcess, "send">, message: ChildrenRequest): void {
    // Loaded here: a run whose program never forks or spawns never pays for it (SPEC §12 start-up).
    this.folder ??= import("../bridge/run-folder.js").then(({ RunFolder }) =>
      RunFolder.open({ bridgeDir: bridgeDir(), executable: message.executable, onChild: (link) => this.accept(link) }),
    );
    this.folder.then(
      (folder) => from.send({ type: "result", id: message.id, ok: true, value: { dir: folder.dir, secret: folder.secret } }),
      (error: Error) => from.send({ type: "result", id: message.id, ok: false, error: { type: "OSError", message: `cannot make the run folder: ${error.message}` } }),
    );
  }

  /** The run is over: each child's invocations end, its link closes, the folder goes. */
  async close(): Promise<void> {
    for (const served of this.served) served.ended();
    const folder = await this.folder?.catch(() => null);
    await folder?.close();
  }

  private accept(link: ChildLink): void {
    const served = this.server.handle(link);
    this.served.push(served);
    void link.ended.then(() => served.ended());
    const child = link.child;
    const options = this.runOptions();
    if (child === null || child.forked) return;
    if (!child.target || !options) {
      link.end();
      return;
    }
    const messages: HostMessage[] = [
      { type: "init", protocol: PROTOCOL_VERSION, ignored_signals: [] },
      { type: "run", target: child.target, argv: child.argv ?? [], orig_argv: child.orig_argv ?? [], options: { ...options, inspect: false, skip_first_line: false } },
    ];
    for (const message of messages) link.send(message);
  }
}
