// `npm run demo [-- SCRIPT [--latency-ms N]]`: starts the stand-in model on 127.0.0.1 and runs
// examples/tickets.py (or SCRIPT) with the built CLI against it, exactly as a user would with a
// real OpenAI-compatible server. `--latency-ms` makes each answer take that long, as a hosted
// model's would (e.g. to watch examples/parallel.py's blocks go out together). A script that needs capability routes (its header names a
// `[capabilities.…]` table, as examples/notes_search.py and examples/transcribe.py do) runs in a
// fresh project folder holding a copy of examples/ and an aiython.toml that routes every
// capability to loopback fakes of the endpoints (demo-project.ts). `npm run demo -- --serve`
// only serves the model, until Ctrl-C, printing the `aiython setup` line that points a project
// at it (to try setup and the console by hand).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { capabilityProject } from "./demo-project.js";
import { startStandInModel } from "./stand-in-model.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const latencyAt = process.argv.indexOf("--latency-ms");
const latencyMs = latencyAt >= 0 ? Number(process.argv.splice(latencyAt, 2)[1]) : 0;
const model = await startStandInModel(latencyMs);
process.stderr.write(`demo: stand-in model at ${model.url}\n`);

if (process.argv[2] === "--serve") serve();
else await runScript(path.resolve(process.argv[2] ?? path.join(root, "examples", "tickets.py")));

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
      process.stderr.write(`demo: ${model.requests.length} model requests\n`);
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
  const args = project ? [path.basename(script)] : [script];
  process.stderr.write(`demo: bin/aiython ${project ? args[0] : (process.argv[2] ?? "examples/tickets.py")}\n`);
  const child = spawn(path.join(root, "bin", "aiython"), args, { stdio: "inherit", env, cwd: project?.dir ?? process.cwd() });
  child.on("close", async (code, signal) => {
    await model.close();
    await project?.close();
    process.stderr.write(`demo: ${model.requests.length} model requests${project ? `, ${project.requests()} capability requests` : ""}\n`);
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
