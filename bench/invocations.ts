// bench/invocations: AI blocks against an instant loopback model (SPEC §12; test/support/instant-model.ts,
// which parses nothing and answers every request at once with a prepared reply), the built CLI as users
// run it. Prints, each measured side by side in one run:
//   cost per invocation     (run with 100 blocks − the same source run 10 times round its loop,
//                           few.py) / 90: what one more invocation costs, host, bridge and the
//                           loopback HTTP round trip, with the run's one-off costs (the plan of a
//                           source with blocks, the first block's loading: start-up's rows) on
//                           both sides. Budget ≤ 2 ms; CPU the same way.
//   local cost per block    (run with 100 one-line blocks − the same program with each block
//                           replaced by Python) / 100, over paired runs in alternating order: all
//                           a block costs but the model's thinking — host, bridge, and the
//                           loopback HTTP round trip, and the one-off costs of a run with blocks
//                           (plain.py needs no plan) spread over its 100 blocks.
//   with the journal        the same difference with the journal on, as a run is by default (each
//                           answer recorded in .aiython/ of a temporary project); and the cost
//                           per invocation with it (100 blocks against 10, as above).
//   a replayed block        the same difference for `--replay blocks.py` (journal on: a replay run is
//                           recorded too) against plain.py: what a block costs when the journal
//                           answers it, SPEC §11.1. Budget: no more than a live block against the
//                           instant model with the journal on (the row above), measured in the same rounds.
//   journal per exchange    what a row of the exchanges table holds after the runs above, a
//                           recorded answer (its request and answer JSON among it) and a replayed
//                           one (which names the recorded row), and the table and its indexes on
//                           disk per row (SQLite's dbstat).
//   CPU per block           the same difference in user+sys CPU time of the CLI's process tree
//                           (host and bridge; GNU time): the loopback server's share is not in it,
//                           and it moves less than wall clock when other work shares the machine.
//   loopback model's CPU    this process's user+sys CPU (the instant model answering; little else
//                           runs here during a run), the same difference: what the model side of
//                           the wall figure costs, not aiython's.
//   outside the request     aiython's own --stats: invocation_seconds − provider_seconds, what an
//                           invocation spends around its model request.
//   first block             bench/invocations/first.py times its blocks itself after 0.3 s of work
//                           (the model client loads in the background meanwhile): the first block
//                           against the median of the 20 after it, i.e. the one-off cost a user
//                           would feel at the first block; and the same with the journal on (its
//                           SQLite loads in the background too, and its file opens after the block).
//   requests per block      budget 1 (a simple block finishes in one round).
//   largest request body    of blocks.py's one-line blocks with small inputs, system prompt and
//                           tool schemas included; budget ≤ 4,500 bytes. (first.py's blocks see
//                           its whole module and a growing list, so they are not the budget's.)
//   peak RSS                of the host process (GNU time's maximum resident set size) for
//                           `node -e 0`, and for hello.py unconfigured and configured with
//                           aiython.toml naming the loopback model; with NODE_EXTRA_CA_CERTS as the
//                           environment has it.
//   against ROOT            with --against ROOT, that checkout's built CLI (its bin/aiython) runs the
//                           same 100-against-10 pair in the same rounds, alternating with this one:
//                           its cost per invocation, and this one's minus it, wall and CPU.
//   npm run build && node --import tsx bench/invocations.ts [pairs] [--against ROOT]

import { spawn, spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SIMPLE_BLOCK_REQUEST_BUDGET_BYTES } from "../src/defaults.js";
import { startInstantModel } from "../test/support/instant-model.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, "..", "bin", "aiython");
const againstAt = process.argv.indexOf("--against");
const OTHER = againstAt > 0 ? path.join(path.resolve(process.argv[againstAt + 1]), "bin", "aiython") : null;
const pairs = Number(process.argv[2] !== undefined && againstAt !== 2 ? process.argv[2] : 7);
const BLOCKS = 100;
/** Blocks of few.py: the same source as blocks.py, its loop run 10 times. */
const FEW = 10;
const BUDGET_MS = 2;

/** Every block of the bench expects an int: the instant model finishes each with 0. */
const model = await startInstantModel(0);
const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_MODEL: "bench", OPENAI_BASE_URL: model.url };
delete env.OPENAI_API_KEY;

const outsideModel: number[] = [];
/** Body sizes of blocks.py's requests: the one-line blocks with small inputs the budget is for. */
const oneLine: number[] = [];

/** A project of its own for the runs that keep the journal (.aiython/ in its root), as a user's would. */
const journalled = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-journal-"));
fs.mkdirSync(path.join(journalled, ".git"));
for (const program of ["blocks.py", "plain.py", "few.py", "first.py"]) fs.copyFileSync(path.join(here, "invocations", program), path.join(journalled, program));

/** GNU time, to read the CPU time of the CLI's process tree (host and bridge); wall clock alone otherwise. */
const TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const CPU_LINE = "aiython cpu: ";
/** Chat requests of this build's runs since counting began (the other build's are not the budget's). */
const ours = { counting: false, chat: 0 };

/** Runs the CLI asynchronously (the loopback model lives in this process and must keep answering). */
function run(program: string, journal = false, cli = CLI, replay = false): Promise<{ ms: number; cpuMs: number; serverCpuMs: number; stdout: string }> {
  const served = model.requests.length;
  const start = process.hrtime.bigint();
  const ownCpu = process.cpuUsage();
  const args = journal
    ? [...(replay ? ["--replay"] : []), "--stats=json", path.join(journalled, program)]
    : ["--no-journal", "--stats=json", path.join(here, "invocations", program)];
  const cwd = journal ? journalled : undefined;
  const child = TIME
    ? spawn(TIME, ["-f", `${CPU_LINE}%U %S`, cli, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    : spawn(cli, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${program} failed (${code}): ${stderr}`));
      const line = stderr.split("\n").find((l) => l.startsWith("aiython stats: "));
      const stats = line ? JSON.parse(line.slice("aiython stats: ".length)) : { invocations: [] };
      if (cli === CLI && ours.counting) ours.chat += model.requests.slice(served).filter((r) => r.path.endsWith("/chat/completions")).length;
      if (program === "blocks.py" && !journal && cli === CLI) {
        for (const inv of stats.invocations) outsideModel.push((inv.invocation_seconds - inv.provider_seconds) * 1000);
        oneLine.push(
          ...model.requests
            .slice(served)
            .filter((r) => r.path.endsWith("/chat/completions"))
            .map((r) => r.bodyBytes),
        );
      }
      const cpu = stderr.split("\n").find((l) => l.startsWith(CPU_LINE));
      const cpuMs = cpu
        ? cpu
            .slice(CPU_LINE.length)
            .split(" ")
            .reduce((sum, s) => sum + Number(s) * 1000, 0)
        : NaN;
      const used = process.cpuUsage(ownCpu);
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs, serverCpuMs: (used.user + used.system) / 1000, stdout });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const verdict = (ok: boolean) => (ok ? "within budget" : "OVER BUDGET");

await run("blocks.py");
await run("plain.py");
await run("few.py");
await run("blocks.py", true);
model.requests.length = 0;
ours.counting = true;
const perBlock: number[] = [];
const cpuPerBlock: number[] = [];
const journalPerBlock: number[] = [];
const replayPerBlock: number[] = [];
const journalMarginal: number[] = [];
const marginal: number[] = [];
const marginalCpu: number[] = [];
/** This process's CPU per invocation, the same difference: the loopback model's own work, inside the wall figure. */
const serverCpu: number[] = [];
const first: number[] = [];
const firstJournal: number[] = [];
const later: number[] = [];
const other = { marginal: [] as number[], cpu: [] as number[], diff: [] as number[], diffCpu: [] as number[] };
/** The other build's 100-against-10 pair: its marginal cost per invocation, wall and CPU. */
async function otherPair(): Promise<{ ms: number; cpu: number } | null> {
  if (!OTHER) return null;
  if (other.marginal.length === 0) await run("blocks.py", false, OTHER);
  const blocks = await run("blocks.py", false, OTHER);
  const few = await run("few.py", false, OTHER);
  return { ms: (blocks.ms - few.ms) / (BLOCKS - FEW), cpu: (blocks.cpuMs - few.cpuMs) / (BLOCKS - FEW) };
}
for (let i = 0; i < pairs; i++) {
  const [a, b] = i % 2 ? ["plain.py", "blocks.py"] : ["blocks.py", "plain.py"];
  const otherFirst = i % 2 ? await otherPair() : null; // the other build goes first every other round
  const fewFirst = i % 2 ? await run("few.py") : null;
  const runs = { [a]: await run(a), [b]: await run(b) };
  const few = fewFirst ?? (await run("few.py"));
  marginal.push((runs["blocks.py"].ms - few.ms) / (BLOCKS - FEW));
  marginalCpu.push((runs["blocks.py"].cpuMs - few.cpuMs) / (BLOCKS - FEW));
  serverCpu.push((runs["blocks.py"].serverCpuMs - few.serverCpuMs) / (BLOCKS - FEW));
  const theirs = otherFirst ?? (await otherPair());
  if (theirs) {
    other.marginal.push(theirs.ms);
    other.cpu.push(theirs.cpu);
    other.diff.push(marginal[marginal.length - 1] - theirs.ms);
    other.diffCpu.push(marginalCpu[marginalCpu.length - 1] - theirs.cpu);
  }
  perBlock.push((runs["blocks.py"].ms - runs["plain.py"].ms) / BLOCKS);
  cpuPerBlock.push((runs["blocks.py"].cpuMs - runs["plain.py"].cpuMs) / BLOCKS);
  const withJournal = { [a]: await run(a, true), [b]: await run(b, true) };
  journalPerBlock.push((withJournal["blocks.py"].ms - withJournal["plain.py"].ms) / BLOCKS);
  replayPerBlock.push(((await run("blocks.py", true, CLI, true)).ms - withJournal["plain.py"].ms) / BLOCKS);
  journalMarginal.push((withJournal["blocks.py"].ms - (await run("few.py", true)).ms) / (BLOCKS - FEW));
  const timed = JSON.parse((await run("first.py")).stdout) as { first_ms: number; later_ms: number };
  first.push(timed.first_ms);
  const timedJournal = JSON.parse((await run("first.py", true)).stdout) as { first_ms: number; later_ms: number };
  firstJournal.push(timedJournal.first_ms - timedJournal.later_ms);
  later.push(timed.later_ms);
}
const requestsPerBlock = ours.chat / (pairs * (2 * BLOCKS + 2 * FEW + 2 * 21));
const largest = Math.max(...oneLine);

/**
 * The exchanges table and its indexes in bytes per row (dbstat), and what one row holds: a
 * recorded one (its request and answer JSON among it), a replayed one (a row naming the recorded one).
 */
function journalBytes(file: string): { rows: number; perRow: number; recorded: number; recordedJson: number; replayed: number } {
  const db = new Database(file, { readonly: true });
  try {
    const pages = db
      .prepare("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = 'exchanges' OR name IN (SELECT name FROM sqlite_schema WHERE tbl_name = 'exchanges')")
      .pluck()
      .get() as number;
    const held = `length(key) + length(route) + length(model) + length(recorded_at) + COALESCE(length(block), 0) + COALESCE(length(invocation), 0)
      + COALESCE(length(request_json), 0) + COALESCE(length(response_json), 0) + 8 * 6`;
    const kinds = db
      .prepare(`SELECT same_as IS NOT NULL AS replayed, COUNT(*) AS n, AVG(${held}) AS bytes, AVG(length(request_json) + length(response_json)) AS json FROM exchanges GROUP BY 1`)
      .all() as { replayed: number; n: number; bytes: number; json: number | null }[];
    const recorded = kinds.find((kind) => !kind.replayed);
    const replayed = kinds.find((kind) => kind.replayed);
    const rows = kinds.reduce((sum, kind) => sum + kind.n, 0);
    return { rows, perRow: pages / rows, recorded: recorded?.bytes ?? NaN, recordedJson: recorded?.json ?? NaN, replayed: replayed?.bytes ?? NaN };
  } finally {
    db.close();
  }
}

/** Peak RSS of the host process running `args`, in MiB, or null without GNU time. */
function peakRss(command: string, args: string[], cwd: string): number | null {
  const result = spawnSync("/usr/bin/time", ["-f", "%M", command, ...args], { cwd, env: rssEnv, encoding: "utf8" });
  if (result.error || result.status !== 0) return null;
  return Number(result.stderr.trim().split("\n").pop()) / 1024;
}
const rssEnv: NodeJS.ProcessEnv = { ...process.env };
for (const key of Object.keys(rssEnv)) if (key.startsWith("OPENAI_") || key.startsWith("AIYTHON_MODEL")) delete rssEnv[key];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-bench-rss-"));
for (const name of ["plain", "configured"]) {
  fs.mkdirSync(path.join(dir, name, ".git"), { recursive: true });
  fs.writeFileSync(path.join(dir, name, "hello.py"), 'print("hello")\n');
}
fs.writeFileSync(path.join(dir, "configured", "aiython.toml"), `version = 3\nmodel = { model = "bench-model", api_base = "${model.url}" }\n`);
const rss = { node: [] as number[], plain: [] as number[], configured: [] as number[] };
for (let i = 0; i < 5; i++) {
  rss.node.push(peakRss(process.execPath, ["-e", "0"], dir) ?? NaN);
  rss.plain.push(peakRss(CLI, ["hello.py"], path.join(dir, "plain")) ?? NaN);
  rss.configured.push(peakRss(CLI, ["hello.py"], path.join(dir, "configured")) ?? NaN);
}
fs.rmSync(dir, { recursive: true, force: true });
const journal = journalBytes(path.join(journalled, ".aiython", "aiython.sqlite"));
fs.rmSync(journalled, { recursive: true, force: true });
await model.close();

const local = median(perBlock);
const firstExtra = median(first) - median(later);
console.log(`blocks per run:              ${BLOCKS} (pairs: ${pairs})`);
const perInvocation = median(marginal);
console.log(
  `cost per invocation:         ${perInvocation.toFixed(2)} ms median, wall clock incl. loopback HTTP, 100 blocks against 10 of the same source (budget ≤ ${BUDGET_MS} ms) ${verdict(perInvocation <= BUDGET_MS)}`,
);
if (!marginalCpu.some(Number.isNaN)) console.log(`CPU per invocation:          ${median(marginalCpu).toFixed(2)} ms median, user+sys of host and bridge, the same difference`);
console.log(
  `loopback model's CPU:        ${median(serverCpu).toFixed(2)} ms median per invocation, this process's user+sys (the instant model's node:http server, on the critical path of the wall figure)`,
);
if (OTHER) {
  console.log(`other build (${OTHER}): cost per invocation ${median(other.marginal).toFixed(2)} ms median, CPU ${median(other.cpu).toFixed(2)} ms`);
  console.log(
    `this − other, per round:     ${median(other.diff).toFixed(2)} ms median wall, ${median(other.diffCpu).toFixed(2)} ms CPU; ratio of medians ${(perInvocation / median(other.marginal)).toFixed(2)} wall, ${(median(marginalCpu) / median(other.cpu)).toFixed(2)} CPU`,
  );
}
console.log(`local cost per block:        ${local.toFixed(2)} ms median, 100 blocks against plain.py: the run's one-off costs of blocks included, spread over 100`);
console.log(
  `with the journal (default):  ${median(journalPerBlock).toFixed(2)} ms median per block, the same pair of programs run without --no-journal; cost per invocation ${median(journalMarginal).toFixed(2)} ms median (100 blocks against 10, journal on)`,
);
const replayed = median(replayPerBlock);
console.log(
  `a replayed block:            ${replayed.toFixed(2)} ms median per block, --replay blocks.py against plain.py, journal on (budget ≤ a live block with the journal, ${median(journalPerBlock).toFixed(2)} ms) ${verdict(replayed <= median(journalPerBlock))}`,
);
console.log(
  `journal per exchange:        a recorded answer ${journal.recorded.toFixed(0)} bytes (its request and answer JSON ${journal.recordedJson.toFixed(0)}), a replayed one ${journal.replayed.toFixed(0)} bytes; ` +
    `${journal.perRow.toFixed(0)} bytes of table and indexes per row on disk over all ${journal.rows} rows`,
);
if (!cpuPerBlock.some(Number.isNaN))
  console.log(
    `CPU per block:               ${median(cpuPerBlock).toFixed(2)} ms median, user+sys of host and bridge (the same difference; steadier than wall clock on a busy machine)`,
  );
console.log(`outside the model request:   ${median(outsideModel).toFixed(2)} ms median per invocation (--stats: invocation − provider seconds)`);
console.log(
  `first block:                 ${median(first).toFixed(1)} ms; later blocks ${median(later).toFixed(2)} ms median; one-off cost of the first ${firstExtra.toFixed(1)} ms; with the journal on ${median(firstJournal).toFixed(1)} ms`,
);
console.log(`model requests per block:    ${requestsPerBlock.toFixed(2)} (budget 1) ${verdict(requestsPerBlock <= 1)}`);
console.log(`largest request body:        ${largest} bytes (budget ≤ ${SIMPLE_BLOCK_REQUEST_BUDGET_BYTES}) ${verdict(largest <= SIMPLE_BLOCK_REQUEST_BUDGET_BYTES)}`);
if (rss.node.some(Number.isNaN)) console.log("peak RSS:                    not measured (needs GNU time at /usr/bin/time)");
else {
  console.log(
    `peak RSS (host), medians:    node -e 0 ${median(rss.node).toFixed(1)} MiB; hello.py unconfigured ${median(rss.plain).toFixed(1)} MiB, ` +
      `configured ${median(rss.configured).toFixed(1)} MiB${process.env.NODE_EXTRA_CA_CERTS ? " (NODE_EXTRA_CA_CERTS set)" : ""}`,
  );
}
