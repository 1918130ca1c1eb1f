// A CompileOracle for tests and benchmarks: ONE long-lived python3 process running a JSON-lines
// loop around aiython_bridge.preparation.oracle.check (the CLI reaches the same function over the
// bridge's control channel). Requests are pipelined; answers come back in order.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { CompileItem, CompileOracle, CompileVerdict } from "../../src/frontend/oracle.js";

const BRIDGE_PY = fileURLToPath(new URL("../../bridge-py", import.meta.url));

const LOOP = `
import json, sys
sys.path.insert(0, sys.argv[1])
from aiython_bridge.preparation.oracle import check
out = sys.stdout
for line in sys.stdin:
    request = json.loads(line)
    out.write(json.dumps(check(request["items"])))
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
  close(): Promise<void>;
}

export function startPythonOracle(python = process.env.AIYTHON_TEST_PYTHON ?? "python3"): PythonOracle {
  const child: ChildProcessWithoutNullStreams = spawn(python, ["-c", LOOP, BRIDGE_PY], { stdio: ["pipe", "pipe", "pipe"] });
  const waiting: { resolve: (v: CompileVerdict[]) => void; reject: (e: Error) => void }[] = [];
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
      waiting.shift()?.resolve(JSON.parse(line) as CompileVerdict[]);
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

  return {
    pid: child.pid,
    get itemsChecked() {
      return itemsChecked;
    },
    get requests() {
      return requests;
    },
    check(items: CompileItem[]): Promise<CompileVerdict[]> {
      if (ended) return Promise.reject(ended);
      itemsChecked += items.length;
      requests++;
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify({ items })}\n`);
      });
    },
    async close(): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}
