// A CompileOracle for tests and benchmarks: ONE long-lived python3 process running a JSON-lines
// loop around aiython_bridge.preparation.oracle.check, which also answers what `--explain` asks the bridge
// for a plan: the checkpoints the bridge selects (aiython_bridge.recovery.listing, SPEC §4.2),
// with the windows that compile as they stand listed ahead while no request waits, as the bridge
// does (server.py; the CLI reaches the same functions over the bridge's control channel).
// Requests are pipelined; answers come back in order.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { CheckpointInfo } from "../../src/bridge/protocol.js";
import type { Plan } from "../../src/frontend/index.js";
import type { CompileItem, CompileOracle, CompileVerdict } from "../../src/frontend/oracle.js";

const BRIDGE_PY = fileURLToPath(new URL("../../bridge-py", import.meta.url));

const LOOP = `
import json, os, select, sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.preparation.oracle import check
from aiython_bridge.preparation.program_code import display_name
from aiython_bridge.recovery.listing import Ahead, checkpoints_of
out, buffer, ahead = sys.stdout, b"", None
while True:
    if b"\\n" not in buffer:
        if ahead is not None and not ahead.done and not select.select([0], [], [], 0)[0]:
            ahead.step()
            continue
        chunk = os.read(0, 1 << 20)
        if not chunk:
            break
        buffer += chunk
        continue
    line, buffer = buffer.split(b"\\n", 1)
    request = json.loads(line)
    if "items" in request:
        answer = check(request["items"])
    elif request["plan"] is None:
        ahead, answer = Ahead(request["source"], request["filename"], request["entry"], request["parts"]), None
    else:
        answer = checkpoints_of(request["source"], request["filename"], request["plan"], entry=request["entry"],
                                name=display_name(request["filename"]), ahead=ahead)
        ahead = None
    out.write(json.dumps(answer))
    out.write("\\n")
    out.flush()
`;

export interface PythonOracle extends CompileOracle {
  /** The Python process id (benchmarks read its CPU time). */
  readonly pid: number | undefined;
  /** Items compiled since start. */
  readonly itemsChecked: number;
  /** Requests (round trips) since start. */
  readonly requests: number;
  /** The checkpoints the bridge selects for `plan` of `source` (what `--explain` shows); `entry` defaults to true. */
  checkpoints(source: string, plan: Plan, options?: { entry?: boolean }): Promise<CheckpointInfo[]>;
  /** The windows of `source` that compile as they stand, [first line, last line], to list ahead of its plan (analyzeSource's onCompiledWindows). */
  ahead(source: string, filename: string, parts: [number, number][]): void;
  close(): Promise<void>;
}

export function startPythonOracle(python = process.env.AIYTHON_TEST_PYTHON ?? "python3"): PythonOracle {
  const child: ChildProcessWithoutNullStreams = spawn(python, ["-c", LOOP, BRIDGE_PY], { stdio: ["pipe", "pipe", "pipe"] });
  const waiting: { resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  let buffer = "";
  let stderr = "";
  let ended: Error | null = null;
  let itemsChecked = 0;
  let requests = 0;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      waiting.shift()?.resolve(JSON.parse(line));
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const fail = (error: Error): void => {
    ended = error;
    for (const w of waiting.splice(0)) w.reject(error);
  };
  child.on("error", fail);
  child.on("exit", (code, signal) => fail(new Error(`the oracle process ended (${signal ?? code}): ${stderr.trim()}`)));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const ask = <T>(request: object): Promise<T> => {
    if (ended) return Promise.reject(ended);
    return new Promise<T>((resolve, reject) => {
      waiting.push({ resolve: resolve as (v: unknown) => void, reject });
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  };

  return {
    pid: child.pid,
    get itemsChecked() {
      return itemsChecked;
    },
    get requests() {
      return requests;
    },
    check(items: CompileItem[]): Promise<CompileVerdict[]> {
      itemsChecked += items.length;
      requests++;
      return ask<CompileVerdict[]>({ items });
    },
    checkpoints(source: string, plan: Plan, options: { entry?: boolean } = {}): Promise<CheckpointInfo[]> {
      return ask<CheckpointInfo[]>({ source, filename: plan.filename, plan, entry: options.entry ?? true });
    },
    ahead(source: string, filename: string, parts: [number, number][]): void {
      void ask({ source, filename, plan: null, entry: true, parts }).catch(() => undefined);
    },
    async close(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}
