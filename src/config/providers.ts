// Providers by model-id prefix and the construction of one Route (SPEC §7). A known prefix
// (`openai/`, `openrouter/`, `gemini/`, `ollama/`) brings its API base and key variable and is
// stripped from the model name sent to the provider; any other id needs an explicit api_base and
// is sent whole (provider "custom": vLLM, llama.cpp server, LM Studio, ...).

import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../errors.js";
import type { CredentialLookup } from "./credentials.js";
import type { Price, ProviderName, Route } from "./types.js";

interface KnownProvider {
  name: Exclude<ProviderName, "custom" | "script">;
  prefix: string;
  apiBase: string;
  apiKeyEnv: string | null;
}

export const KNOWN_PROVIDERS: readonly KnownProvider[] = [
  { name: "openai", prefix: "openai/", apiBase: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" },
  { name: "openrouter", prefix: "openrouter/", apiBase: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_API_KEY" },
  {
    name: "gemini",
    prefix: "gemini/",
    apiBase: "https://generativelanguage.googleapis.com/v1beta/openai/",
    apiKeyEnv: "GEMINI_API_KEY",
  },
  { name: "ollama", prefix: "ollama/", apiBase: "http://localhost:11434/v1", apiKeyEnv: null },
];

export function knownProvider(id: string): KnownProvider | null {
  return KNOWN_PROVIDERS.find((p) => id.startsWith(p.prefix)) ?? null;
}

export interface RouteSource {
  id: string;
  apiBase?: string;
  apiKeyEnv?: string;
  /** Names the setting in messages, e.g. `aiython.toml: profiles.fast.model[1]` or `AIYTHON_MODEL`. */
  where: string;
  /** The setting that supplies a base URL, named in the fix for an id without a known prefix. */
  baseSetting: string;
  envFile: string | null;
  /** A key variable consulted when neither the route nor its provider names one; never makes a key required. */
  optionalKeyEnv?: string;
  price?: Price | null;
  /** The folder a `script:PATH` id's relative path starts from (the configuration file's, or the working directory). */
  baseDir?: string;
}

/** The prefix of a scripted model's id: `script:rules.toml` answers from a rules file, in this process. */
export const SCRIPT_PREFIX = "script:";

export function buildRoute(source: RouteSource, credentials: CredentialLookup): Route {
  const { id, where } = source;
  if (id.startsWith(SCRIPT_PREFIX)) return scriptRoute(source);
  const known = knownProvider(id);
  let provider: ProviderName;
  let model: string;
  let apiBase: string;
  let apiKeyEnv: string | null;
  let keyRequired: boolean;
  if (known) {
    model = id.slice(known.prefix.length);
    if (model.trim() === "") {
      throw new ConfigError(`${where}: the model id names the provider but no model; write "${known.prefix}<model name>"`);
    }
    provider = known.name;
    apiBase = source.apiBase ?? known.apiBase;
    apiKeyEnv = source.apiKeyEnv ?? known.apiKeyEnv;
    // A hosted provider at its own base needs a key; a replaced base (a proxy, a local server) may not.
    keyRequired = source.apiKeyEnv !== undefined || (apiKeyEnv !== null && apiBase === known.apiBase);
  } else {
    if (source.apiBase === undefined) {
      const prefixes = KNOWN_PROVIDERS.map((p) => p.prefix).join(", ");
      throw new ConfigError(
        `${where}: the model id has no known provider prefix (${prefixes}); write it as "provider/model" ` +
          `(e.g. "openai/gpt-4.1-mini"), or set ${source.baseSetting} to the URL of an OpenAI-compatible server`,
      );
    }
    provider = "custom";
    model = id;
    apiBase = source.apiBase;
    apiKeyEnv = source.apiKeyEnv ?? source.optionalKeyEnv ?? null;
    keyRequired = source.apiKeyEnv !== undefined;
  }
  const found = apiKeyEnv === null ? { value: null, source: "none" as const } : credentials.find(apiKeyEnv, source.envFile);
  const route = { id, provider, model, apiBase, apiKeyEnv, keyRequired, keySource: found.source, price: source.price ?? null, rateLimit: null } as Route;
  // Non-enumerable so that JSON.stringify, util.inspect and spreads of a route never carry the key.
  Object.defineProperty(route, "apiKey", { value: found.value, enumerable: false, writable: false });
  return route;
}

/** A scripted model (`script:PATH`): no server, no key; its model is the rules file's absolute path. */
function scriptRoute({ id, where, baseDir, price }: RouteSource): Route {
  const file = id.slice(SCRIPT_PREFIX.length).trim();
  if (file === "") throw new ConfigError(`${where}: "script:" names no rules file; write "script:PATH", e.g. "script:rules.toml"`);
  const model = path.resolve(baseDir ?? process.cwd(), file);
  return {
    id,
    provider: "script",
    model,
    apiBase: pathToFileURL(model).href,
    apiKeyEnv: null,
    apiKey: null,
    keyRequired: false,
    keySource: "none",
    price: price ?? null,
    rateLimit: null,
  };
}

const SECRET_QUERY = /^(key|api[-_]?key|token|access[-_]?token|secret|password|sig|signature)$/i;

/**
 * Checks an API base URL: http(s), no `user:pass@`, no key-like query parameter. `where` names
 * the setting; the URL itself is never echoed since it is the thing suspected of holding a secret.
 */
export function checkApiBase(value: string, where: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${where}: not a valid URL; expected e.g. "http://127.0.0.1:8080/v1"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${where}: expected an http:// or https:// URL`);
  }
  // url.search first: the URLSearchParams machinery costs ~2 ms to load at its first use.
  const keyLikeParam = url.search !== "" && [...url.searchParams.keys()].some((k) => SECRET_QUERY.test(k));
  if (url.username !== "" || url.password !== "" || keyLikeParam) {
    throw new ConfigError(`${where}: the URL contains credentials; remove them and put the key in an environment variable named by api_key_env (or in env_file)`);
  }
}
