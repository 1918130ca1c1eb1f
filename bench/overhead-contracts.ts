// bench/overhead's type-contracts part: what `type_contracts = "all"` (SPEC §6 for all annotated
// project code) costs, time measured inside the program (best of its repeats):
//   bench/overhead/contract_calls.py        annotated functions called in a hot loop
//   bench/overhead/contract_assignments.py  annotated local assignments in a hot loop
// Paired runs, alternating order, of:
//   plain  python3 PROGRAM
//   ai     the built CLI, aiython.toml `type_contracts = "ai"` (the default: the code is python3's)
//   all    the built CLI, aiython.toml `type_contracts = "all"`
// No model is configured in either (the setting applies without one), so the rows differ by the
// checks alone; the preparation cache is warm after the warm-up run. Prints medians and ratios
// against plain, and all against ai. There is no budget for "all": it is opt-in and priced here.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const CONTRACT_PROGRAMS = ["contract_calls.py", "contract_assignments.py"];

interface Row {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  times: number[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A project folder of its own holding `program` and an aiython.toml with `type_contracts = mode`. */
function projectWith(root: string, name: string, mode: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `aiython-contracts-${mode}-`));
  fs.mkdirSync(path.join(dir, ".git"));
  fs.copyFileSync(path.join(root, "bench", "overhead", name), path.join(dir, name));
  fs.writeFileSync(path.join(dir, "aiython.toml"), `version = 3\ntype_contracts = "${mode}"\n`);
  return dir;
}

export function measureContracts(root: string, python: string, env: NodeJS.ProcessEnv, pairs: number, name: string): void {
  const cli = path.join(root, "bin", "aiython");
  const ai = projectWith(root, name, "ai");
  const all = projectWith(root, name, "all");
  const rows: Row[] = [
    { name: "plain", command: python, args: [name], cwd: ai, times: [] },
    { name: "ai", command: cli, args: ["--no-journal", name], cwd: ai, times: [] },
    { name: "all", command: cli, args: ["--no-journal", name], cwd: all, times: [] },
  ];
  let checksum: string | null = null;
  const run = (row: Row): number => {
    const result = spawnSync(row.command, row.args, { env, cwd: row.cwd, encoding: "utf8" });
    const match = /^elapsed (\S+) checksum (\S+)$/m.exec(result.stdout ?? "");
    if (result.status !== 0 || !match) throw new Error(`${row.name} failed (${result.status}): ${result.stderr}`);
    if (checksum !== null && match[2] !== checksum) throw new Error(`${row.name} computed ${match[2]}, plain ${checksum}`);
    checksum = match[2];
    return Number(match[1]);
  };
  for (const row of rows) run(row); // warm-up: file caches, the preparation cache
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 ? rows : [...rows].reverse();
    for (const row of order) row.times.push(run(row));
  }
  for (const dir of [ai, all]) fs.rmSync(dir, { recursive: true, force: true });

  const [plain, off, on] = rows.map((row) => median(row.times));
  console.log(`interpreter: ${python}`);
  console.log(`program: bench/overhead/${name}, type contracts, time measured inside the program (best of its repeats), ${pairs} paired runs, load ${os.loadavg()[0].toFixed(2)}`);
  for (const [row, value] of [
    [rows[0], plain],
    [rows[1], off],
    [rows[2], on],
  ] as const) {
    console.log(`${`${row.name === "plain" ? "python3" : `aiython ${row.name}`}`.padEnd(12)} median ${(value * 1000).toFixed(1)} ms  ratio ${(value / plain).toFixed(3)}`);
  }
  console.log(`type_contracts "all" / "ai": ${(on / off).toFixed(2)}x ("ai" runs python3's code: its ratio is ~1)`);
}
