// The program's resource limits of one run (SPEC §9): `--time-limit` / `--memory-limit`, else
// the selected profile's `time_limit` / `memory_limit`, and what the run says when the time
// limit ends it (exit 124, SPEC §2). The memory limit is the bridge's to apply (RunOptions).

import path from "node:path";
import type { ProfileSettings, ResolvedConfig } from "../config/index.js";
import type { RunCommand } from "./run-command.js";

export interface RunLimits {
  time: { seconds: number; setting: string } | null;
  memory: { mb: number; setting: string } | null;
}

export function runLimits(command: RunCommand, config: ResolvedConfig, profile: ProfileSettings | undefined): RunLimits {
  const file = config.path === null ? "aiython.toml" : path.basename(config.path);
  const time = command.timeLimit ?? profile?.timeLimitSeconds ?? null;
  const memory = command.memoryLimit ?? profile?.memoryLimitMb ?? null;
  return {
    time: time === null ? null : { seconds: time, setting: command.timeLimit !== undefined ? "--time-limit" : `time_limit in ${file}` },
    memory: memory === null ? null : { mb: memory, setting: command.memoryLimit !== undefined ? "--memory-limit" : `memory_limit in ${file}` },
  };
}

export function timeLimitMessage(limit: NonNullable<RunLimits["time"]>): string {
  return (
    `the run reached its time limit of ${limit.seconds} s (${limit.setting}; time waiting for the model is not counted) ` +
    `and the program was ended; raise the limit to give it more time`
  );
}
