// `npm run demo [-- SCRIPT [--latency-ms N]]`: starts the stand-in model on 127.0.0.1 and runs
// examples/tickets.py (or SCRIPT) with the built CLI against it, exactly as a user would with a
// real OpenAI-compatible server. `--latency-ms` makes each answer take that long, as a hosted
// model's would (e.g. to watch examples/parallel.py's blocks go out together).

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStandInModel } from "./stand-in-model.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const latencyAt = process.argv.indexOf("--latency-ms");
const latencyMs = latencyAt >= 0 ? Number(process.argv.splice(latencyAt, 2)[1]) : 0;
const model = await startStandInModel(latencyMs);
process.stderr.write(`demo: stand-in model at ${model.url}\n`);
process.stderr.write(`demo: AIYTHON_MODEL=openai/stand-in OPENAI_BASE_URL=<that url> bin/aiython ${process.argv[2] ?? "examples/tickets.py"}\n`);
const env: NodeJS.ProcessEnv = { ...process.env, AIYTHON_MODEL: "openai/stand-in", OPENAI_BASE_URL: model.url };
delete env.OPENAI_API_KEY;
const script = process.argv[2] ?? path.join(root, "examples", "tickets.py");
const child = spawn(path.join(root, "bin", "aiython"), [script], { stdio: "inherit", env });
child.on("close", async (code, signal) => {
  await model.close();
  process.stderr.write(`demo: ${model.requests.length} model requests\n`);
  process.exitCode = code ?? (signal ? 1 : 0);
});
