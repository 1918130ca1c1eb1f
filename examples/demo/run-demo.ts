// `npm run demo [-- [--latency-ms N] [AIYTHON OPTIONS] [SCRIPT [ARGS...]]]`: starts the stand-in
// model on 127.0.0.1 and runs examples/tickets.py (or SCRIPT, the first argument ending in .py)
// with the built CLI against it, exactly as a user would with a real OpenAI-compatible server.
// Options before SCRIPT are aiython's (`--stats`, `--trace FILE`, …) and go to it; ARGS go to the
// program. `--latency-ms N` (anywhere) makes each answer take that long, as a hosted model's would
// (e.g. to watch examples/parallel.py's blocks go out together). A script that needs capability routes
// (its header names a `[capabilities.…]` table, as examples/notes_search.py and
// examples/transcribe.py do) runs in a fresh project folder holding a copy of examples/ and an
// aiython.toml that routes every capability to loopback fakes of the endpoints
// (demo-project.ts). `npm run demo -- --serve` only serves the model, until Ctrl-C, printing the
// `aiython setup` line that points a project at it (to try setup and the console by hand).
// With `--batch` among aiython's options the stand-in also speaks the OpenAI Batch API, and the
// run is given a configuration that looks at a batch each second instead of each 30
// (`npm run demo -- --batch examples/batch_classify.py`).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { capabilityProject } from "./demo-project.js";
import { startStandInBatch, startStandInModel } from "./stand-in-model.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = demoArguments(process.argv.slice(2));
if (args.script !== null && !fs.existsSync(args.script)) {
  process.stderr.write(`demo: no such script: ${args.script} (npm run demo -- [AIYTHON OPTIONS] [SCRIPT [ARGS...]])\n`);
  process.exit(2);
}
const batched = args.options.some((option) => option === "--batch" || option.startsWith("--batch="));
const model = batched ? await startStandInBatch(args.latencyMs) : await startStandInModel(args.latencyMs);
process.stderr.write(`demo: stand-in model at ${model.url}${batched ? " (with a Batch API)" : ""}\n`);

if (args.serve) serve();
else await runScript(path.resolve(args.script ?? path.join(root, "examples", "tickets.py")));

/** The demo's own options, aiython's options, the script and the program's arguments. */
function demoArguments(argv: string[]) {
  const parsed = { latencyMs: 0, serve: false, options: [] as string[], script: null as string | null, programArgs: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--latency-ms")
      parsed.latencyMs = Number(argv[++i]); // the demo's own, wherever it stands
    else if (parsed.script !== null) parsed.programArgs.push(arg);
    else if (arg === "--serve") parsed.serve = true;
    else if (arg.endsWith(".py")) parsed.script = arg;
    else parsed.options.push(arg);
  }
  return parsed;
}

function serve(): void {
  process.stderr.write(`demo: aiython setup --base-url ${model.url} --model stand-in --check\n`);
  process.stderr.write("demo: then aiython examples/tickets.py, or aiython and >>> x = pick a number between 1 and 10\n");
  process.stderr.write("demo: serving until Ctrl-C\n");
  for (const [signal, n] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
  ] as const) {
    process.once(signal, async () => {
      await model.close();
      process.stderr.write(`demo: ${modelRequests()}\n`);
      process.exit(128 + n);
    });
  }
}

async function runScript(script: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_MODEL: "openai/stand-in", OPENAI_BASE_URL: model.url };
  delete env.OPENAI_API_KEY;
  const needsCapabilities = fs.readFileSync(script, "utf8").includes("[capabilities.");
  const project = needsCapabilities ? await capabilityProject(script, model.url) : null;
  if (project) {
    delete env.AIYTHON_MODEL;
    delete env.OPENAI_BASE_URL;
    process.stderr.write(`demo: capability fakes at ${project.fakesUrl}; project ${project.dir} (its aiython.toml routes to them)\n`);
  }
  const batchConfig = batched && !project ? batchConfiguration(env) : [];
  const cliArgs = [...batchConfig, ...args.options, project ? path.basename(script) : script, ...args.programArgs];
  const shown = [...args.options, project ? path.basename(script) : (args.script ?? "examples/tickets.py"), ...args.programArgs];
  process.stderr.write(`demo: bin/aiython ${shown.join(" ")}\n`);
  const child = spawn(path.join(root, "bin", "aiython"), cliArgs, { stdio: "inherit", env, cwd: project?.dir ?? process.cwd() });
  child.on("close", async (code, signal) => {
    if (batchConfig.length) fs.rmSync(path.dirname(batchConfig[1]), { recursive: true, force: true });
    await model.close();
    await project?.close();
    process.stderr.write(`demo: ${modelRequests()}${project ? `, ${plural(project.requests(), "capability request")}` : ""}\n`);
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

/** What the stand-in answered: its requests, or with a Batch API those it answered in batches and live. */
function modelRequests(): string {
  if (!("batches" in model)) return plural(model.requests.length, "model request");
  const inBatches = model.batches.reduce((sum, batch) => sum + batch.lines.length, 0);
  return `${plural(inBatches, "model request")} in ${plural(model.batches.length, "batch", "batches")}, ${model.liveChats().length} live`;
}

/** `--config FILE` routing the model to the stand-in with quick batches (`env` loses the variables the file replaces). */
function batchConfiguration(env: NodeJS.ProcessEnv): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "aiython-demo-")), "aiython.toml");
  const toml = [`version = 3`, `model = { model = "openai/stand-in", api_base = "${model.url}" }`, "", "[batch]", "window = 0.5", "poll = 1", ""];
  fs.writeFileSync(file, toml.join("\n"));
  delete env.AIYTHON_MODEL;
  delete env.OPENAI_BASE_URL;
  return ["--config", file];
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}
