// `aiython setup [...]` (SPEC §7): its flags, parsed with commander, and the terminal it may
// prompt on; src/setup/ does the work.

import tty from "node:tty";
import { Command, CommanderError } from "commander";
import { UsageError, type RunOutcome } from "../../errors.js";
import type { SetupFlags } from "../../setup/answers.js";
import { writeStdout } from "../stdout.js";

const USAGE = "aiython setup [--provider NAME] [--model ID] [--base-url URL] [--api-key-env NAME] [--set-key] [--profile NAME] [--capability NAME] [--check] [--non-interactive]";

function command(): Command {
  return new Command("aiython setup")
    .usage("[options]")
    .description("Write or update aiython.toml: the model, its server and its key. On a terminal it asks for what the flags leave open.")
    .option("--provider <name>", "openai, openrouter, gemini, ollama, or custom (any OpenAI-compatible server)")
    .option("--model <id>", "the model id, e.g. gpt-4.1-mini or openai/gpt-4.1-mini")
    .option("--base-url <url>", "the server's OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1")
    .option("--api-key-env <name>", "the environment variable that holds the key")
    .option("--set-key", "store the key in .aiython/credentials.env (asked without echo; read from stdin without a terminal)")
    .option("--profile <name>", "write [profiles.NAME] instead of the top level")
    .option("--capability <name>", "write the route of a capability (vision, embedding, ...) instead of the chat model")
    .option("--check", "send one tiny forced tool call and report what the server supports; save nothing if it fails")
    .option("--non-interactive", "never prompt; take everything from the flags")
    .option("--config <file>", "edit this file instead of the nearest aiython.toml")
    .allowExcessArguments()
    .helpOption("-h, --help", "show this help")
    .exitOverride()
    .configureOutput({ writeOut: (text) => void writeStdout(text), writeErr: () => undefined, outputError: () => undefined });
}

export async function setupCommand(args: string[], global: { configFile?: string; profile?: string }): Promise<RunOutcome> {
  const parsed = command();
  try {
    parsed.parse(args, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return { kind: "status", status: 0 };
      throw new UsageError(`${error.message.replace(/^error: /, "")}: ${USAGE}`);
    }
    throw error;
  }
  if (parsed.args.length > 0) throw new UsageError(`setup takes no arguments, not '${parsed.args[0]}': ${USAGE}`);
  const o = parsed.opts<Record<string, string | boolean | undefined>>();
  const flags: SetupFlags = {
    provider: o.provider as string | undefined,
    model: o.model as string | undefined,
    baseUrl: o.baseUrl as string | undefined,
    apiKeyEnv: o.apiKeyEnv as string | undefined,
    setKey: Boolean(o.setKey),
    profile: (o.profile as string | undefined) ?? global.profile,
    capability: o.capability as string | undefined,
    check: Boolean(o.check),
    nonInteractive: Boolean(o.nonInteractive),
    configFile: (o.config as string | undefined) ?? global.configFile,
  };
  const { runSetup } = await import("../../setup/run-setup.js");
  try {
    return await runSetup(flags, {
      cwd: process.cwd(),
      env: process.env,
      interactive: !flags.nonInteractive && tty.isatty(0) && tty.isatty(1),
      out: (text) => process.stdout.write(text),
      readKey: readStdin,
    });
  } catch (error) {
    // Ctrl-C or Ctrl-D at a prompt (@inquirer/prompts' ExitPromptError): stop, having written nothing.
    if (error instanceof Error && error.name === "ExitPromptError") return { kind: "status", status: 130, message: "setup stopped; nothing was saved" };
    throw error;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}
