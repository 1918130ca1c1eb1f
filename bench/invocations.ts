// bench/invocations: 100 AI blocks against an instant loopback model (SPEC §12). Prints the local
// overhead per invocation (budget ≤ 3 ms: the run with 100 blocks minus the same program with the
// block replaced by Python, divided by 100, in paired runs — this includes the HTTP round trip to
// the loopback server and the openai client, i.e. everything but the model's thinking), the same
// from aiython's own --stats (invocation_seconds − provider_seconds: what the invocation spends
// outside the model request), model requests per block (budget 1) and the largest request body
// (budget ≤ 6 KB, system prompt and tool schemas included).
//   npm run build && node --import tsx bench/invocations.ts [pairs]

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { echoFinishResponder, startLoopbackModel } from "../test/support/loopback-model.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(here, "..", "bin", "aiython");
const pairs = Number(process.argv[2] ?? 5);
const BLOCKS = 100;

const model = await startLoopbackModel({ responder: echoFinishResponder() });
const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_MODEL: "bench", OPENAI_BASE_URL: model.url };
delete env.OPENAI_API_KEY;

/** Runs the CLI asynchronously: the loopback model lives in this process and must keep answering. */
const outsideModel: number[] = [];

function run(program: string): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(CLI, ["--no-journal", "--stats=json", path.join(here, "invocations", program)], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${program} failed (${code}): ${stderr}`));
      const line = stderr.split("\n").find((l) => l.startsWith("aiython stats: "));
      const stats = line ? JSON.parse(line.slice("aiython stats: ".length)) : { invocations: [] };
      for (const inv of stats.invocations) outsideModel.push((inv.invocation_seconds - inv.provider_seconds) * 1000);
      resolve(Number(process.hrtime.bigint() - start) / 1e6);
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await run("blocks.py");
await run("plain.py");
model.requests.length = 0;
const perBlock: number[] = [];
for (let i = 0; i < pairs; i++) {
  const withBlocks = await run("blocks.py");
  const without = await run("plain.py");
  perBlock.push((withBlocks - without) / BLOCKS);
}
const requests = model.requests.length / pairs;
const largest = Math.max(...model.requests.map((r) => Buffer.byteLength(r.rawBody)));
await model.close();
console.log(`blocks per run:              ${BLOCKS} (pairs: ${pairs})`);
console.log(`local overhead per block:    ${median(perBlock).toFixed(2)} ms median, wall clock incl. loopback HTTP (budget 3 ms)`);
console.log(`outside the model request:   ${median(outsideModel).toFixed(2)} ms median per invocation (--stats: invocation − provider seconds)`);
console.log(`model requests per block:    ${(requests / BLOCKS).toFixed(2)} (budget 1)`);
console.log(`largest request body:        ${largest} bytes (budget 6144)`);
