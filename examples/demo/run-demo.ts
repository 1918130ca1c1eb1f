// `npm run demo [-- SCRIPT]`: starts the stand-in model on 127.0.0.1 and runs examples/tickets.py
// (or SCRIPT) with the built CLI against it, exactly as a user would with a real
// OpenAI-compatible server. `npm run demo -- --serve` only serves it, until Ctrl-C, printing the
// `aiython setup` line that points a project at it (to try setup and the console by hand).

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startStandInModel } from "./stand-in-model.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const model = await startStandInModel();
process.stderr.write(`demo: stand-in model at ${model.url}\n`);

if (process.argv[2] === "--serve") {
  process.stderr.write(`demo: aiython setup --base-url ${model.url} --model stand-in --check\n`);
  process.stderr.write("demo: then aiython examples/tickets.py, or aiython and >>> x = pick a number between 1 and 10\n");
  process.stderr.write("demo: serving until Ctrl-C\n");
  for (const [signal, n] of [["SIGINT", 2], ["SIGTERM", 15]] as const) {
    process.once(signal, async () => {
      await model.close();
      process.stderr.write(`demo: ${model.requests.length} model requests\n`);
      process.exit(128 + n);
    });
  }
} else {
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
}
