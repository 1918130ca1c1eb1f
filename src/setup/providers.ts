// The providers `aiython setup` offers (SPEC §7): the four with a known id prefix (their base URL
// and key variable come from config/providers.ts) and "another OpenAI-compatible server" for
// vLLM, llama.cpp's server, LM Studio and the like, which need an explicit api_base.

import { KNOWN_PROVIDERS } from "../config/index.js";
import { SETUP_DEFAULTS } from "../defaults.js";

export type SetupProviderName = "openai" | "openrouter" | "gemini" | "ollama" | "custom";

export interface SetupProvider {
  name: SetupProviderName;
  label: string;
  /** Written before the model id ("openai/"); null for custom servers. */
  prefix: string | null;
  defaultBase: string;
  /** The variable the key is read from by default; null: no key by default (local servers). */
  keyEnv: string | null;
}

const LABELS: Record<SetupProviderName, string> = {
  openai: "OpenAI",
  openrouter: "OpenRouter",
  gemini: "Google Gemini (OpenAI-compatible endpoint)",
  ollama: "Ollama on this machine",
  custom: "another OpenAI-compatible server (vLLM, llama.cpp, LM Studio, a proxy)",
};

export const SETUP_PROVIDERS: readonly SetupProvider[] = [
  ...KNOWN_PROVIDERS.map((p) => ({ name: p.name, label: LABELS[p.name], prefix: p.prefix, defaultBase: p.apiBase, keyEnv: p.apiKeyEnv })),
  { name: "custom", label: LABELS.custom, prefix: null, defaultBase: SETUP_DEFAULTS.customBaseUrl, keyEnv: null },
];

export function setupProvider(name: string): SetupProvider | undefined {
  return SETUP_PROVIDERS.find((p) => p.name === name);
}

/** The provider a model id names by its prefix ("openai/gpt-4.1" → openai), if any. */
export function providerOfModel(model: string): SetupProvider | undefined {
  return SETUP_PROVIDERS.find((p) => p.prefix !== null && model.startsWith(p.prefix));
}

/** The id as aiython.toml writes it: prefixed for a known provider, as given for a custom server. */
export function configuredModelId(provider: SetupProvider, model: string): string {
  if (provider.prefix === null || model.startsWith(provider.prefix)) return model;
  return `${provider.prefix}${model}`;
}
