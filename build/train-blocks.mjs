// Build step helper, run by build/train-code-cache.mjs in a process of its own (the training runs
// are synchronous, and a model must answer while the CLI runs): serves the instant model
// (test/support/instant-model.ts) on a loopback port and runs the built CLI, with the cache
// recorder preloaded, on a program whose AI blocks that model finishes, so that the code cache
// also holds what a first block compiles. Prints the CLI's stdout and exits with its status.
//   node build/train-blocks.mjs RECORDER CLI PROGRAM   (in the program's folder, the recorder's
//   environment set)

import { spawn } from "node:child_process";
import { importTypeScript } from "./import-typescript.mjs";

const [recorder, cli, program] = process.argv.slice(2);
const { startInstantModel } = await importTypeScript("test/support/instant-model.ts");
const model = await startInstantModel(0);
const env = { ...process.env, AIYTHON_MODEL: "build-model", OPENAI_BASE_URL: model.url };
const child = spawn(process.execPath, ["-r", recorder, cli, "--no-journal", program], { env, stdio: ["ignore", "pipe", "inherit"] });
let stdout = "";
child.stdout.on("data", (chunk) => (stdout += chunk));
const status = await new Promise((resolve) => {
  child.on("error", () => resolve(1));
  child.on("close", (code) => resolve(code ?? 1));
});
await model.close();
process.stdout.write(stdout);
process.exit(status);
