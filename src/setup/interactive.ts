// `aiython setup` on a terminal (SPEC §7): asks, with @inquirer/prompts, for what the flags left
// open — the provider, the base URL of a local or custom server, the key (typed without echo),
// and the model, chosen from the server's /models with word-prefix search (model-search.ts), or
// typed when the server cannot list them. Nothing is written here.

import { listModels } from "../model/server-check.js";
import { SETUP_DEFAULTS } from "../defaults.js";
import { keyEnvFor, providerFromFlags, type SetupAnswers, type SetupFlags } from "./answers.js";
import { modelChoices } from "./model-search.js";
import { configuredModelId, SETUP_PROVIDERS, type SetupProvider } from "./providers.js";

/** The key already configured under this variable (environment, env_file, credentials file), if any. */
export type KeyLookup = (name: string) => string | null;

export async function askAnswers(flags: SetupFlags, existingKey: KeyLookup, say: (line: string) => void): Promise<SetupAnswers> {
  const { input, password, search, select, confirm } = await import("@inquirer/prompts");
  const provider =
    providerFromFlags(flags) ??
    (await select<SetupProvider>({
      message: "Which model provider?",
      choices: SETUP_PROVIDERS.map((p) => ({ name: p.label, value: p, description: p.prefix === null ? undefined : `model ids start with ${p.prefix}` })),
    }));
  const local = provider.name === "custom" || provider.name === "ollama";
  const baseUrl =
    flags.baseUrl ?? (local ? await input({ message: "Base URL of the server's OpenAI-compatible API", default: provider.defaultBase, validate: validUrl }) : provider.defaultBase);

  let key: string | null = null;
  let wantsKey = provider.keyEnv !== null || flags.setKey || flags.apiKeyEnv !== undefined;
  if (provider.name === "custom" && !wantsKey) wantsKey = await confirm({ message: "Does the server need an API key?", default: false });
  const apiKeyEnv = keyEnvFor(provider, flags, wantsKey);
  if (apiKeyEnv !== null && wantsKey) {
    if (existingKey(apiKeyEnv) !== null && !flags.setKey) {
      say(`Using the key already set in ${apiKeyEnv}.`);
    } else {
      const typed = await password({
        message: `API key (saved in .aiython/credentials.env as ${apiKeyEnv}; not shown)`,
        validate: (v) => (v.trim() === "" ? "paste the key, or press Ctrl-C to stop" : true),
      });
      key = typed.trim();
    }
  }

  const model = flags.model ?? (await chooseModel(provider, baseUrl, key ?? (apiKeyEnv === null ? null : existingKey(apiKeyEnv)), apiKeyEnv, say, { input, search }));
  return { provider, baseUrl, model, apiKeyEnv, key };
}

function validUrl(value: string): true | string {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? true : "an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1";
  } catch {
    return "an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1";
  }
}

type Prompts = Pick<typeof import("@inquirer/prompts"), "input" | "search">;

async function chooseModel(provider: SetupProvider, baseUrl: string, key: string | null, keyEnv: string | null, say: (line: string) => void, prompts: Prompts): Promise<string> {
  let ids: string[] = [];
  try {
    ids = await listModels({ id: provider.name, model: "", apiBase: baseUrl, apiKey: key, apiKeyEnv: keyEnv }, SETUP_DEFAULTS.listModelsTimeoutMs);
  } catch (error) {
    say(`Could not list the server's models (${(error as Error).message}).`);
  }
  if (ids.length === 0) {
    return prompts.input({
      message: `Model id${provider.prefix ? ` (without ${provider.prefix})` : ""}`,
      validate: (v) => (v.trim() === "" ? "a model id, e.g. gpt-4.1-mini" : true),
    });
  }
  say(`The server lists ${ids.length} model${ids.length === 1 ? "" : "s"}; type words of a name to narrow them, or a model id it does not list.`);
  return prompts.search<string>({
    message: "Model",
    source: (term) => modelChoices(ids, term ?? "", (id) => configuredModelId(provider, id)),
    pageSize: 12,
  });
}
