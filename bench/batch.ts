// bench/batch: the host's cost of batch offload (SPEC §14), side by side with the same requests
// sent live, against loopback servers with zero latency (test/support/loopback-batch.ts and
// loopback-model.ts, `--echo-finish`, each in a process of its own). Each round is a fresh process
// (bench/batch/host-round.ts), the two modes alternating (A B A B):
//   CPU per request      the round's process CPU (user + sys) / N for N requests of about 4 KB
//                        sent at once: through the batch port (gathered, one JSONL upload, the
//                        batch created and polled, its output read and each line routed back)
//                        and through the live client (max_concurrency 256). Budget ≤ 1 ms per
//                        batched request. The JIT warms on one request before the clock starts.
//   memory, 50,000 waiting  the round's resident set once 50,000 requests wait — the batch
//                        submitted and held in progress by the server; live, 256 in flight and the
//                        rest queued against a server that never answers — and its growth from
//                        just before the requests were made: what waiting costs the host beyond
//                        the requests themselves (about 4 KB each, which the blocks hold in either
//                        mode and the round's own baseline includes). Budget ≤ 200 MB of host RSS
//                        for the 50,000 waiting (the growth). Rounds run with --expose-gc, and
//                        collect before each reading, so the figures are what is held.
//   node --import tsx bench/batch.ts [rounds] [--n N]

import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = process.argv.slice(2);
const countAt = args.indexOf("--n");
const n = countAt >= 0 ? Number(args[countAt + 1]) : 2000;
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && (countAt < 0 || i !== countAt + 1)) ?? 4);
const PENDING = 50_000;

async function server(script: string, ...flags: string[]): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "test", "support", script), "--echo-finish", ...flags], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) => child.stdout.once("data", (chunk) => resolve(String(chunk).trim())));
  return { url, stop: () => child.kill("SIGTERM") };
}

function round(mode: string, url: string, count: number, pending: boolean): Record<string, number> {
  const ran = spawnSync(
    process.execPath,
    ["--expose-gc", "--import", "tsx", path.join(here, "batch", "host-round.ts"), mode, url, String(count), ...(pending ? ["--pending"] : [])],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 300_000,
    },
  );
  if (ran.status !== 0) throw new Error(`${mode} round failed: ${ran.stderr}`);
  return JSON.parse(ran.stdout.trim().split("\n").at(-1) as string);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value: number, digits = 3) => value.toFixed(digits);

async function main(): Promise<void> {
  const batchApi = await server("loopback-batch.ts");
  const chat = await server("loopback-model.ts");
  const held = await server("loopback-batch.ts", "--hold");
  const silent = await server("loopback-model.ts", "--delay-ms", "600000");
  try {
    const cpu: Record<string, number[]> = { batch: [], live: [] };
    for (let i = 0; i < rounds; i++) {
      for (const mode of i % 2 === 0 ? ["batch", "live"] : ["live", "batch"]) {
        const result = round(mode, mode === "batch" ? batchApi.url : chat.url, n, false);
        if (result.failed > 0) throw new Error(`${mode}: ${result.failed} requests failed`);
        cpu[mode].push(result.cpuMs / n);
      }
    }
    const memory: Record<string, Record<string, number>[]> = { batch: [], live: [] };
    for (let i = 0; i < 2; i++) {
      for (const mode of i % 2 === 0 ? ["batch", "live"] : ["live", "batch"]) memory[mode].push(round(mode, mode === "batch" ? held.url : silent.url, PENDING, true));
    }
    const [batchCpu, liveCpu] = [median(cpu.batch), median(cpu.live)];
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    console.log(`bench/batch: ${rounds} rounds of ${n} requests each mode, alternating; load average ${load} (${os.cpus().length} cores)`);
    console.log(
      `  host CPU per request   batched ${fixed(batchCpu)} ms   live ${fixed(liveCpu)} ms   ratio ${fixed(batchCpu / liveCpu, 2)}   budget ≤ 1 ms batched: ${batchCpu <= 1 ? "within budget" : "OVER BUDGET"}`,
    );
    const rss = (mode: string) => median(memory[mode].map((m) => m.rssMb));
    const growth = (mode: string) => median(memory[mode].map((m) => m.rssGrowthMb));
    const heap = (mode: string) => median(memory[mode].map((m) => m.heapMb));
    console.log(
      `  host RSS, ${PENDING} waiting   batched ${fixed(rss("batch"), 0)} MB (+${fixed(growth("batch"), 0)} MB, heap ${fixed(heap("batch"), 0)} MB)   live ${fixed(rss("live"), 0)} MB (+${fixed(growth("live"), 0)} MB, heap ${fixed(heap("live"), 0)} MB)   ratio ${fixed(rss("batch") / rss("live"), 2)}   budget ≤ 200 MB growth batched: ${growth("batch") <= 200 ? "within budget" : "OVER BUDGET"}`,
    );
  } finally {
    for (const s of [batchApi, chat, held, silent]) s.stop();
  }
}

void main();
