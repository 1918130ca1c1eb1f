// One round of bench/batch.ts, in a process of its own: N model requests of a realistic size
// (about 4 KB, as a one-line block's) sent at once through the host's batch port (the run's
// offload: gathered, journaled — here without a journal —, uploaded, polled, routed back) or
// through the live client (bounded by max_concurrency 256, as a run's), against a loopback server
// with zero latency. Prints one JSON line: this process's CPU and wall time for the round, and,
// with --pending, its resident set once all N wait (the batch submitted and held by the server,
// or the live requests in flight and queued against a server that never answers).
//   node --import tsx bench/batch/host-round.ts batch|live URL N [--pending]

import { BatchOffload } from "../../src/batch/offload.js";
import { batchPort } from "../../src/batch/batch-port.js";
import { BatchProgress } from "../../src/batch/progress.js";
import { createModelClient } from "../../src/model/model-client.js";
import type { ModelPort, ModelRequest } from "../../src/model-port.js";
import { InFlightLimit, limitedPort } from "../../src/run/in-flight-limit.js";
import { NO_JOURNAL } from "../../test/support/batch-no-journal.js";

const [mode, url, count] = process.argv.slice(2);
const n = Number(count);
const pending = process.argv.includes("--pending");
const route = { id: "bench", model: "bench", apiBase: url, apiKey: "sk-bench", apiKeyEnv: null };

// As in a run: the system prompt and the tools are the same objects in every request; the user message is each block's own.
const system = `You are the model of an AI block. ${"Rules of the tools and the outcome. ".repeat(60)}`;
const tool = (name: string) => ({
  type: "function" as const,
  function: { name, description: `the ${name} tool`, parameters: { type: "object", properties: { outcome: { type: "object" } } } },
});
const tools = ["finish", "evaluate", "get_binding", "execute"].map(tool);

function request(i: number): ModelRequest {
  const user = JSON.stringify({ statement: "classify this ticket", requires_result: false, location: { file: "main.py", line: 7 }, ticket: `ticket ${i} ${"x".repeat(600)}` });
  return {
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    tools,
    toolChoice: "required",
  };
}

function port(): { model: ModelPort; offload: BatchOffload | null } {
  if (mode === "live") return { model: limitedPort(createModelClient([{ ...route }]), new InFlightLimit(256), 256), offload: null };
  const offload = new BatchOffload(
    { windowMs: 50, pollMs: 10, maxRequests: 50_000, dir: null, attach: false },
    {
      journal: NO_JOURNAL,
      progress: new BatchProgress(() => undefined, false),
      stop: (message) => {
        throw new Error(message);
      },
      shown: (file) => file,
    },
  );
  return { model: batchPort(offload, route, { fallbackLive: null }), offload };
}

async function main(): Promise<void> {
  const { model, offload } = port();
  // Loads and warms the path (a pending round's server never answers: nothing to wait for there).
  if (!pending) await model.complete(request(-1), { deadline: Date.now() + 600_000 }).catch(() => undefined);
  const requests = Array.from({ length: n }, (_, i) => request(i));
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answers = requests.map((r) => model.complete(r, { deadline: Date.now() + 600_000 }));
  if (pending) {
    global.gc?.();
    if (offload) while (offload.submissions < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    else await new Promise((resolve) => setTimeout(resolve, 3000));
    global.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rssMb: rss / 2 ** 20, rssGrowthMb: (rss - rssBefore) / 2 ** 20, heapMb: heapUsed / 2 ** 20 })}\n`);
    process.exit(0);
  }
  const done = await Promise.allSettled(answers);
  const used = process.cpuUsage(cpu);
  const failed = done.filter((d) => d.status === "rejected").length;
  process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started, failed })}\n`);
  offload?.close();
  process.exit(0);
}

void main();
