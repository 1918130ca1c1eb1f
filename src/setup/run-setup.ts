// `aiython setup` from start to end (SPEC §7): find the aiython.toml to edit (--config, the
// nearest one, else a new one in the working folder), get the answers (flags, then prompts on a
// terminal), run the --check request when asked — and on its failure save nothing — then write
// the route into the file (edit-config.ts keeps comments and other keys), store a typed key in
// .aiython/credentials.env (0600) and keep .aiython/ out of git. `setup --check` alone checks the
// route already configured. No key is ever printed. A new model keeps the server the file names
// unless the user switches it (kept-server.ts); a folder setup cannot write in is one message
// naming the file and the fix (write-failure.ts), never an internal error.

import fs from "node:fs";
import path from "node:path";
import { checkServer, type ServerReport } from "../model/server-check.js";
import type { ChatRoute } from "../model/types.js";
import {
  CONFIG_FILE_NAME,
  CredentialLookup,
  discoverConfigFile,
  displayPath,
  editConfigText,
  ignoreAiythonFolder,
  loadConfig,
  profileFor,
  readConfigText,
  storeCredential,
  type RouteKeys,
} from "../config/index.js";
import { CREDENTIALS_FILE, SETUP_DEFAULTS } from "../defaults.js";
import { UsageError, type RunOutcome } from "../errors.js";
import { answersFromFlags, checkFlags, type SetupAnswers, type SetupFlags } from "./answers.js";
import { askAnswers } from "./interactive.js";
import { configuredModelId } from "./providers.js";
import { renderReport } from "./report.js";
import { existingServer, keepServer, removedBaseLine } from "./kept-server.js";
import { writeFailure } from "./write-failure.js";

export interface SetupContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Prompts allowed: a terminal on stdin and stdout, and no --non-interactive. */
  interactive: boolean;
  out: (text: string) => void;
  /** The key piped to --set-key without a terminal. */
  readKey: () => Promise<string>;
}

export async function runSetup(given: SetupFlags, ctx: SetupContext): Promise<RunOutcome> {
  checkFlags(given);
  const target = configTarget(given, ctx.cwd);
  const text = fs.existsSync(target.file) ? readConfigText(target.file, target.shown) : null;
  const existing = await existingServer(text, given.profile ?? null, given.capability ?? null);
  const flags = keepServer(given, existing, target.shown);
  const say = (line: string) => ctx.out(`${line}\n`);
  const lookup = new CredentialLookup(ctx.env, target.root, ctx.cwd);
  const existingKey = (name: string) => lookup.find(name, null).value;
  const routeGiven = flags.model !== undefined || flags.provider !== undefined || flags.baseUrl !== undefined || flags.setKey;
  if (flags.check && !routeGiven && flags.capability === undefined) {
    const configured = await configuredRoute(flags, ctx);
    if (configured !== null) return checkConfigured(configured, say);
    if (!ctx.interactive) throw new UsageError("setup --check: no model is configured yet; run aiython setup (or give --model) first");
  }

  const answers = ctx.interactive ? await askAnswers(flags, existingKey, say) : answersFromFlags(flags, flags.setKey ? await pipedKey(ctx) : null);
  const route = chatRoute(answers, answers.key ?? (answers.apiKeyEnv === null ? null : existingKey(answers.apiKeyEnv)));
  if (flags.check || (ctx.interactive && flags.capability === undefined && (await wantsCheck()))) {
    const report = await checked(route, say);
    if (report === null) return { kind: "status", status: 1, message: `setup: nothing was saved; fix the server or the answers and run aiython setup again` };
  }
  const keys = routeKeys(answers, flags);
  const next = await editConfigText(text, { profile: flags.profile ?? null, capability: flags.capability ?? null, keys }, target.shown);
  const elsewhere = "run aiython setup in a folder you can write to, or name another file with --config PATH";
  // The key first: a key that cannot be stored (.aiython not a folder, not writable) leaves aiython.toml as it was.
  const credentials = displayPath(path.join(target.root, CREDENTIALS_FILE), ctx.cwd);
  const storing = answers.key !== null && answers.apiKeyEnv !== null;
  if (storing) {
    const failedKey = writeFailure(() => storeCredential(target.root, answers.apiKeyEnv as string, answers.key as string), credentials, `nothing was saved; ${elsewhere}`);
    if (failedKey) return failedKey;
  }
  const failed = writeFailure(
    () => writeAtomically(target.file, next),
    target.shown,
    storing ? `only the key was saved (in ${credentials}); ${elsewhere}` : `nothing was saved; ${elsewhere}`,
  );
  if (failed) return failed;
  say(`${text === null ? "Created" : "Updated"} ${target.shown}: ${where(flags)} model = "${configuredModelId(answers.provider, answers.model)}"`);
  const removed = removedBaseLine(existing, keys.api_base, answers.baseUrl);
  if (removed) say(removed);
  if (storing) say(`Stored the key as ${answers.apiKeyEnv} in ${credentials} (readable by you only).`);
  const gitignore = displayPath(path.join(target.root, ".gitignore"), ctx.cwd);
  let ignored = false;
  const failedIgnore = writeFailure(() => (ignored = ignoreAiythonFolder(target.root)), gitignore, "add .aiython/ to it yourself");
  if (failedIgnore?.message) process.stderr.write(`aiython: ${failedIgnore.message}\n`);
  if (ignored) say(`Added .aiython/ to ${gitignore} (keys and the run journal stay out of git).`);
  say(`Next: aiython ${flags.profile ? `--profile ${flags.profile} ` : ""}your_script.py`);
  return { kind: "status", status: 0 };
}

async function wantsCheck(): Promise<boolean> {
  const { confirm } = await import("@inquirer/prompts");
  return confirm({ message: "Send one tiny request to check the server?", default: true });
}

/** Runs the check and prints its report; null when it failed (the reason is printed). */
async function checked(route: ChatRoute, say: (line: string) => void): Promise<ServerReport | null> {
  say(`Checking ${route.apiBase} with model ${route.model} …`);
  try {
    const report = await checkServer(route, SETUP_DEFAULTS.checkTimeoutMs);
    say(renderReport(report));
    return report;
  } catch (error) {
    say(`Check failed: ${(error as Error).message}`);
    return null;
  }
}

/** The first route of the configured profile (--profile, else the top level), or null. */
async function configuredRoute(flags: SetupFlags, ctx: SetupContext): Promise<ChatRoute | null> {
  const config = await loadConfig({ scriptPath: null, cwd: ctx.cwd, configFile: flags.configFile, profile: flags.profile, env: ctx.env });
  const [first] = profileFor(config, null).routes;
  return first ? { id: first.id, model: first.model, apiBase: first.apiBase, apiKey: first.apiKey, apiKeyEnv: first.apiKeyEnv } : null;
}

/** `aiython setup --check` alone: the route the configuration already has. */
async function checkConfigured(route: ChatRoute, say: (line: string) => void): Promise<RunOutcome> {
  const report = await checked(route, say);
  return report === null ? { kind: "status", status: 1, message: `setup --check: route ${route.id} failed the check` } : { kind: "status", status: 0 };
}

function chatRoute(answers: SetupAnswers, key: string | null): ChatRoute {
  const id = configuredModelId(answers.provider, answers.model);
  const model = answers.provider.prefix !== null && id.startsWith(answers.provider.prefix) ? id.slice(answers.provider.prefix.length) : id;
  return { id, model, apiBase: answers.baseUrl, apiKey: key, apiKeyEnv: answers.apiKeyEnv };
}

/**
 * The keys to write. A base URL or key variable equal to the provider's own is removed from the
 * top level (an old custom server's would otherwise still apply); a profile or capability writes
 * its base URL always, since a profile inherits the top-level one (SPEC §7); a capability's table inherits nothing.
 */
function routeKeys(answers: SetupAnswers, flags: SetupFlags): RouteKeys {
  const nested = flags.profile !== undefined && flags.capability === undefined;
  const ownBase = answers.provider.prefix === null || answers.baseUrl !== answers.provider.defaultBase;
  const ownKeyEnv = answers.apiKeyEnv !== null && answers.apiKeyEnv !== answers.provider.keyEnv;
  return {
    model: configuredModelId(answers.provider, answers.model),
    api_base: ownBase || nested ? answers.baseUrl : null,
    api_key_env: ownKeyEnv || (nested && answers.apiKeyEnv !== null) ? answers.apiKeyEnv : null,
  };
}

function where(flags: SetupFlags): string {
  const profile = flags.profile ? `[profiles.${flags.profile}]` : "";
  const capability = flags.capability ? `capability ${flags.capability}` : "";
  return [profile, capability].filter((s) => s !== "").join(" ") || "top level";
}

interface ConfigTarget {
  file: string;
  root: string;
  shown: string;
}

function configTarget(flags: SetupFlags, cwd: string): ConfigTarget {
  const file = flags.configFile !== undefined ? path.resolve(cwd, flags.configFile) : (discoverConfigFile(cwd) ?? path.join(cwd, CONFIG_FILE_NAME));
  return { file, root: path.dirname(file), shown: displayPath(file, cwd) };
}

async function pipedKey(ctx: SetupContext): Promise<string> {
  const key = (await ctx.readKey()).trim();
  if (key === "") throw new UsageError('--set-key without a terminal reads the key from standard input, and it was empty: printf %s "$KEY" | aiython setup --set-key ...');
  return key;
}

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o644;
  try {
    fs.writeFileSync(temp, text, { mode });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
