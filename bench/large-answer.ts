// bench/large-answer: a model's large answer (SPEC §12; issue 35): one AI block answered by the
// instant loopback model with a string literal of 20 and 50 MB, and of 1 KB as the baseline, the
// built CLI as users run it, with max_response_mb raised to 200. bench/large-answer/answer.py
// prints the peak resident set (VmHWM) of the host and of the bridge; printed per size with the
// host's peak over the baseline's and that growth against the body's size (budget: within 2×),
// journal on (as a run is by default) and off. The sizes alternate in each round. With --against
// ROOT, that checkout's built CLI answers the same in the same rounds (a run that fails is printed
// with its message: before issue 35, 50 MB ended in exit 70). Last, the 50 MB answer at the
// default max_response_mb (32), as a run without the setting gets it: refused, with its message.
//   npm run build && node --import tsx bench/large-answer.ts [rounds] [--against ROOT]

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
const SIZES: [string, number][] = [
  ["1 KB", 1024],
  ["20 MB", 20 * 1024 * 1024],
  ["50 MB", 50 * 1024 * 1024],
];

interface Peaks {
  host: number;
  bridge: number;
  body: number;
}

async function run(cli: string, bytes: number, journal: boolean, cap = "max_response_mb = 200\n"): Promise<Peaks | string> {
  const model = await startInstantModel("x".repeat(bytes));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiython-large-answer-"));
  try {
    fs.copyFileSync(path.join(here, "large-answer", "answer.py"), path.join(dir, "main.py"));
    fs.mkdirSync(path.join(dir, ".git"));
    fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\nmodel = { model = "instant", api_base = "${model.url}" }\n${cap}`);
    const args = [...(journal ? [] : ["--no-journal"]), "main.py"];
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(cli, args, { cwd: dir, env: { ...process.env, OPENAI_API_KEY: "sk-bench" }, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (c) => (out += c));
      child.stderr.on("data", (c) => (err += c));
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err.trim().split("\n").at(-1)?.slice(0, 160)}`))));
    }).catch((error: Error) => error.message);
    if (stdout.startsWith("exit ")) return stdout;
    const [length, host, bridge] = stdout.trim().split(" ").map(Number);
    if (length !== bytes) throw new Error(`the program got ${length} characters of ${bytes}`);
    return { host: host * 1024, bridge: bridge * 1024, body: bytes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await model.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

for (const journal of [true, false]) {
  const seen = new Map<string, (Peaks | string)[]>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? SIZES : [...SIZES].reverse();
    for (const [name, bytes] of order) {
      for (const [build, cli] of round % 2 === 0 ? builds : [...builds].reverse()) {
        const key = `${build} ${name}`;
        seen.set(key, [...(seen.get(key) ?? []), await run(cli, bytes, journal)]);
      }
    }
  }
  console.log(`journal ${journal ? "on" : "off"} (${rounds} round${rounds === 1 ? "" : "s"}, medians):`);
  for (const [build] of builds) {
    const at = (name: string, side: "host" | "bridge") => median(seen.get(`${build} ${name}`)!.flatMap((p) => (typeof p === "string" ? [] : [p[side]])));
    const base = at("1 KB", "host");
    for (const [name, bytes] of SIZES) {
      const failed = seen.get(`${build} ${name}`)!.find((p) => typeof p === "string");
      if (failed !== undefined) {
        console.log(`  ${build} ${name.padStart(5)} answer: failed, ${failed}`);
        continue;
      }
      const host = at(name, "host");
      const line = `  ${build} ${name.padStart(5)} answer: host peak ${mb(host)}, bridge peak ${mb(at(name, "bridge"))}`;
      if (bytes < 1024 * 1024) {
        console.log(`${line} (the baseline)`);
        continue;
      }
      const ratio = (host - base) / bytes;
      console.log(`${line}; host over the baseline ${mb(host - base)} = ${ratio.toFixed(1)}× the body (budget 2×: ${ratio <= 2 ? "within budget" : "OVER BUDGET"})`);
    }
  }
}
for (const [build, cli] of builds) {
  const refused = await run(cli, 50 * 1024 * 1024, true, "");
  console.log(`${build} 50 MB answer at the default max_response_mb: ${typeof refused === "string" ? `refused, ${refused}` : "answered (NOT REFUSED)"}`);
}
console.log(
  `load average: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (2 cores; other work shares them)`,
);
