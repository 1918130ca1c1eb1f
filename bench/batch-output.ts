// bench/batch-output: the host's memory reading a completed batch's output file (SPEC §14; the
// OpenAI Batch API allows 50,000 requests and 200 MB a batch). The loopback Batch API
// (test/support/loopback-batch.ts, a process of its own) serves one output file of N lines (50,000
// by default) in OpenAI's batch output format, each about 2.3 KB: a completion whose answer is one
// `finish` tool call of about 400 bytes, with the logprobs a provider may add (about 1.8 KB, read
// and dropped). Each round is a fresh process (bench/batch-output/read-round.ts) that reads the
// file into its answers by custom_id, the two ways alternating (A B A B):
//   streamed   the host's way: GET /files/{id}/content streamed by node:http(s), split into lines
//              as the chunks come (src/batch/result-stream.ts)
//   whole      the way before, kept in the round only as the baseline: fetch's text(), then split
// and prints the process's resident set at its peak (getrusage maxrss), its growth over the
// resident set just before reading, and the ratio streamed / whole; and the heap the answers
// alone take once read and collected, which both ways must keep for the blocks. No budget of SPEC §12's: the figures say what the file costs beyond
// its answers (streamed: the line being read and the garbage not yet collected; whole: the body
// as bytes and as a string, and its lines).
//   node --import tsx bench/batch-output.ts [rounds] [--lines N]

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BatchApi } from "../src/batch/batch-api.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = process.argv.slice(2);
const linesAt = args.indexOf("--lines");
const lines = linesAt >= 0 ? Number(args[linesAt + 1]) : 50_000;
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && (linesAt < 0 || i !== linesAt + 1)) ?? 4);

/** One output line: a `finish` call of about 400 bytes and about 1.8 KB of logprobs. */
function outputLine(i: number): string {
  const value = `label ${i % 7}: ${"the ticket is about the printer on the third floor; ".repeat(6)}`;
  const call = { id: `call_${i}`, type: "function", function: { name: "finish", arguments: JSON.stringify({ outcome: { kind: "literal", value } }) } };
  const logprobs = { content: Array.from({ length: 24 }, (_, t) => ({ token: `tok${t}`, logprob: -0.0123 * t, bytes: [116, 111, 107], top_logprobs: [] })) };
  const body = {
    id: `chatcmpl-${i}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-4o-mini-2024-07-18",
    choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [call] }, logprobs, finish_reason: "tool_calls" }],
    usage: { prompt_tokens: 1130, completion_tokens: 100, total_tokens: 1230 },
    system_fingerprint: "fp_0123456789",
  };
  return JSON.stringify({ id: `batch_req_${i}`, custom_id: `req-${i + 1}`, response: { status_code: 200, request_id: `req_${i}`, body }, error: null });
}

/** Writes the output file to disk, a line at a time. */
async function writeOutput(file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  for (let i = 0; i < lines; i++) if (!out.write(`${outputLine(i)}\n`)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return fs.statSync(file).size;
}

async function loopback(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ["--max-old-space-size=4096", "--import", "tsx", path.join(root, "test", "support", "loopback-batch.ts"), "--echo-finish"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) => child.stdout.once("data", (chunk) => resolve(String(chunk).trim())));
  return { url, stop: () => child.kill("SIGTERM") };
}

function round(mode: string, url: string, fileId: string): Record<string, number> {
  const ran = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(here, "batch-output", "read-round.ts"), mode, url, fileId], {
    cwd: root,
    encoding: "utf8",
    timeout: 300_000,
  });
  if (ran.status !== 0) throw new Error(`${mode} round failed: ${ran.stderr}`);
  const result = JSON.parse(ran.stdout.trim().split("\n").at(-1) as string);
  if (result.answered !== lines) throw new Error(`${mode}: ${result.answered} of ${lines} answers read`);
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-output-"));
  const server = await loopback();
  try {
    const file = path.join(dir, "output.jsonl");
    const bytes = await writeOutput(file);
    // The loopback serves what was uploaded: the output file goes up as a batch input file would.
    const fileId = await new BatchApi({ id: "bench", model: "bench", apiBase: server.url, apiKey: "sk-bench", apiKeyEnv: null }).upload(file, "output.jsonl");
    const runs: Record<string, Record<string, number>[]> = { streamed: [], whole: [] };
    for (let i = 0; i < rounds; i++) for (const mode of i % 2 === 0 ? ["streamed", "whole"] : ["whole", "streamed"]) runs[mode].push(round(mode, server.url, fileId));
    const peak = (mode: string) => median(runs[mode].map((r) => r.peakMb));
    const growth = (mode: string) => median(runs[mode].map((r) => r.peakMb - r.beforeMb));
    const time = (mode: string) => median(runs[mode].map((r) => r.ms));
    const fileMb = bytes / 2 ** 20;
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    console.log(
      `bench/batch-output: ${rounds} rounds each way, alternating; an output file of ${lines} lines, ${fileMb.toFixed(1)} MB; load average ${load} (${os.cpus().length} cores)`,
    );
    const held = (mode: string) => median(runs[mode].map((r) => r.heldMb));
    console.log(
      `  host peak RSS reading it   streamed ${peak("streamed").toFixed(0)} MB (+${growth("streamed").toFixed(0)} MB)   whole ${peak("whole").toFixed(0)} MB (+${growth("whole").toFixed(0)} MB)   ratio ${(peak("streamed") / peak("whole")).toFixed(2)} (growth ${(growth("streamed") / growth("whole")).toFixed(2)})`,
    );
    console.log(`  the answers alone (heap)   streamed +${held("streamed").toFixed(0)} MB   whole +${held("whole").toFixed(0)} MB`);
    console.log(
      `  time to read it            streamed ${(time("streamed") / 1000).toFixed(2)} s   whole ${(time("whole") / 1000).toFixed(2)} s   ratio ${(time("streamed") / time("whole")).toFixed(2)}`,
    );
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
