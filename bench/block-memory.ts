// bench/block-memory: memory per block (SPEC §12: none grows with the number of blocks). One AI
// block asked 10,000 times against the instant loopback model (test/support/instant-model.ts), the
// built CLI as users run it; bench/memory/many_blocks.py prints the host's and the bridge's
// resident set at blocks 100, 1,000 and 10,000, and the peak of each so far. Printed for the
// journal off and on, with the growth from block 100 to 10,000 per block; the peak by block 1,000
// against the peak by 10,000 (a resident set taken at one instant rises and falls with V8's
// collections: the peak says whether the memory a run needs still grows, budget: within 5 MB);
// and the journal's bytes per recorded exchange (the database file over the exchanges it holds). With --against ROOT, that checkout's built CLI runs the same
// rounds, alternating with this one.
//   npm run build && node --import tsx bench/block-memory.ts [rounds] [--against ROOT]

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startInstantModel } from "../test/support/instant-model.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const againstAt = process.argv.indexOf("--against");
const builds: [string, string][] = [["this", path.resolve(here, "..", "bin", "aiython")]];
if (againstAt > 0) builds.push(["other", path.join(path.resolve(process.argv[againstAt + 1]), "bin", "aiython")]);
const rounds = Number(process.argv[2] !== undefined && againstAt !== 2 ? process.argv[2] : 1);
const BLOCKS = 10_000;

interface Marks {
  host: Map<number, number>;
  bridge: Map<number, number>;
  hostPeak: Map<number, number>;
  bridgePeak: Map<number, number>;
  journalBytes: number | null;
}

/** How much the peak may still rise from block 1,000 to 10,000 (noise of V8's sizing, not growth). */
const FLAT_KB = 5 * 1024;

/** The CLI's stdout; asynchronous, since the instant model answers from this process. */
function runCli(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${cli} ended ${code}: ${stderr}`))));
  });
}

async function run(cli: string, url: string, journal: boolean): Promise<Marks> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-block-memory-"));
  fs.copyFileSync(path.join(here, "memory", "many_blocks.py"), path.join(dir, "main.py"));
  fs.mkdirSync(path.join(dir, ".git"));
  const env = { ...process.env, AIYTHON_MODEL: "instant", OPENAI_BASE_URL: url, OPENAI_API_KEY: "sk-bench" };
  const args = [...(journal ? [] : ["--no-journal"]), "main.py", String(BLOCKS)];
  const stdout = await runCli(cli, args, dir, env);
  const marks: Marks = { host: new Map(), bridge: new Map(), hostPeak: new Map(), bridgePeak: new Map(), journalBytes: null };
  for (const line of stdout.trim().split("\n")) {
    const [block, host, bridge, hostPeak, bridgePeak] = line.split(" ").map(Number);
    marks.host.set(block, host);
    marks.bridge.set(block, bridge);
    marks.hostPeak.set(block, hostPeak);
    marks.bridgePeak.set(block, bridgePeak);
  }
  const db = path.join(dir, ".aiython", "aiython.sqlite");
  if (journal && fs.existsSync(db)) marks.journalBytes = fs.statSync(db).size;
  fs.rmSync(dir, { recursive: true, force: true });
  return marks;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

const model = await startInstantModel(0);
try {
  for (const journal of [false, true]) {
    const seen = new Map<string, Marks[]>(builds.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const [name, cli] of order) {
        model.requests.length = 0;
        seen.get(name)!.push(await run(cli, model.url, journal));
      }
    }
    console.log(`journal ${journal ? "on" : "off"} (${rounds} round${rounds === 1 ? "" : "s"}, medians):`);
    for (const [name] of builds) {
      const all = seen.get(name)!;
      const at = (side: "host" | "bridge" | "hostPeak" | "bridgePeak", block: number) => median(all.map((m) => m[side].get(block)!));
      for (const side of ["host", "bridge"] as const) {
        const growth = ((at(side, 10_000) - at(side, 100)) * 1024) / (10_000 - 100);
        const late = ((at(side, 10_000) - at(side, 1000)) * 1024) / (10_000 - 1000);
        const blocks = [100, 1000, 10_000].map((b) => `${b}: ${mb(at(side, b))}`).join(", ");
        console.log(`  ${name} ${side.padEnd(6)} ${blocks}; 100 → 10,000: ${growth.toFixed(0)} bytes per block, 1,000 → 10,000: ${late.toFixed(0)}`);
        const peak = side === "host" ? "hostPeak" : "bridgePeak";
        const rise = at(peak, 10_000) - at(peak, 1000);
        const verdict = rise <= FLAT_KB ? "within budget" : "OVER BUDGET";
        console.log(`  ${name} ${side.padEnd(6)} peak by 1,000: ${mb(at(peak, 1000))}, by 10,000: ${mb(at(peak, 10_000))}; rise ${mb(rise)} (budget ${mb(FLAT_KB)}: ${verdict})`);
      }
      if (journal) console.log(`  ${name} journal ${(median(all.map((m) => m.journalBytes ?? 0)) / BLOCKS).toFixed(0)} bytes per exchange (the file over ${BLOCKS} exchanges)`);
    }
  }
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (2 cores; other work shares them)`,
  );
} finally {
  await model.close();
}
