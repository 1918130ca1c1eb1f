// `aiython jobs list [--json]` and `aiython jobs resume ID` (SPEC §10): the project's long
// capability jobs (video generation) that outlive a run. `resume` waits for the provider, writes
// the video under .aiython/artifacts and prints its path on stdout; a job still running when the
// wait ends, or one whose submission was uncertain, is a message on stderr and exit status 1.
// Ctrl-C stops the wait (the job stays resumable) and ends in 130.

import { UsageError, type RunOutcome } from "../../errors.js";
import { table } from "../../observe/stats-render.js";
import { listProjectJobs, resumeProjectJob, type JobsContext } from "../../run/project-jobs.js";
import { writeStdout } from "../stdout.js";

const USAGE = "aiython jobs list [--json] | aiython jobs resume ID";

export async function runJobsCommand(args: readonly string[], ctx: JobsContext): Promise<RunOutcome> {
  const [action, ...rest] = args;
  if (action === "list") {
    const json = rest.length === 1 && rest[0] === "--json";
    if (rest.length > (json ? 1 : 0)) throw new UsageError(`unexpected argument '${rest[0]}': ${USAGE}`);
    const { jobs, file } = await listProjectJobs(ctx);
    if (json) await writeStdout(`${JSON.stringify(jobs)}\n`);
    else if (jobs.length === 0) await writeStdout(`no jobs in this project (${file})\n`);
    else {
      const rows = jobs.map((j) => [String(j.id), j.status, j.capability, j.origin ?? "-", j.created_at, j.artifact ?? "-"]);
      await writeStdout(`${table(["id", "status", "capability", "from", "created", "artifact"], rows, 99).join("\n")}\n`);
    }
    return { kind: "status", status: 0 };
  }
  if (action === "resume") {
    if (rest.length !== 1 || !/^[1-9][0-9]*$/.test(rest[0])) throw new UsageError(`jobs resume needs one job id (a number from aiython jobs list): ${USAGE}`);
    return resume(Number(rest[0]), ctx);
  }
  throw new UsageError(action === undefined ? `jobs needs list or resume: ${USAGE}` : `unknown jobs command '${action}': ${USAGE}`);
}

async function resume(id: number, ctx: JobsContext): Promise<RunOutcome> {
  const controller = new AbortController();
  let interrupted: NodeJS.Signals | null = null;
  const stop = (signal: NodeJS.Signals) => {
    interrupted = signal;
    controller.abort();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const outcome = await resumeProjectJob(id, ctx, controller.signal);
    if (interrupted !== null) return { kind: "signal", signal: interrupted, message: `stopped waiting; job ${id} stays resumable: aiython jobs resume ${id}` };
    switch (outcome.status) {
      case "ok":
        await writeStdout(`${JSON.parse(outcome.valueJson) as string}\n`);
        return { kind: "status", status: 0 };
      case "pending":
        return { kind: "status", status: 1, message: outcome.message };
      default:
        return { kind: "status", status: 1, message: `job ${id}: ${outcome.message}` };
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
