// Helpers for journal, stats, trace and replay tests: temporary project folders, a way to make a
// folder truly unwritable even for root (chmod alone does not stop root), the counters of one
// invocation, and a run's start and end as the journal takes them.

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import type { InvocationStats, RunEnd, RunStart } from "../../src/journal/index.js";

export { tempProject } from "./temp-project.js";

/**
 * Makes `dir` unwritable: mode 0500, plus the immutable attribute when running as root. Returns
 * an undo function, or null when the folder stays writable here (the test should then skip).
 */
export function makeUnwritable(dir: string): (() => void) | null {
  fs.chmodSync(dir, 0o500);
  let immutable = false;
  if (process.getuid?.() === 0) {
    try {
      execFileSync("chattr", ["+i", dir], { stdio: "ignore" });
      immutable = true;
    } catch {
      // No chattr or no support on this file system.
    }
  }
  const undo = () => {
    if (immutable) execFileSync("chattr", ["-i", dir], { stdio: "ignore" });
    fs.chmodSync(dir, 0o700);
  };
  const probe = path.join(dir, ".probe");
  try {
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    undo();
    return null;
  } catch {
    return undo;
  }
}

export function counters(overrides: Partial<InvocationStats> = {}): InvocationStats {
  return {
    model_calls: 1,
    replayed: 0,
    batched: 0,
    tool_calls: 1,
    tool_counts: { finish: 1 },
    request_bytes: 5000,
    token_usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920, cached_tokens: 0 },
    invalid_batches: 0,
    empty_responses: 0,
    tool_failures: 0,
    provider_seconds: 0.25,
    invocation_seconds: 0.3,
    cost_usd: 0.00042,
    unpriced_routes: [],
    ...overrides,
  };
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** A recorded run's start (mode `record` unless overridden). */
export function runStart(overrides: Partial<RunStart> = {}): RunStart {
  return {
    script: "tickets.py",
    args: [],
    mode: "record",
    argv: ["tickets.py"],
    commandKey: "command-tickets",
    cwd: ".",
    interpreter: { executable: "/usr/bin/python3", version: "3.11.7" },
    profile: { name: "default", route: "openai/m", model: "m" },
    sourceRun: null,
    resumedFrom: null,
    pid: 4242,
    version: "0.0.0-test",
    startedAt: new Date("2025-01-02T03:04:05Z"),
    ...overrides,
  };
}

/** A run's end: the program's own exit 0 unless overridden. */
export const END: RunEnd = { endedAt: new Date(), status: 0, signal: null, how: "exit", totalSeconds: 1, parseSeconds: 0, prepareSeconds: 0, executionSeconds: 1 };
