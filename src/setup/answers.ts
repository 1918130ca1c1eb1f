// What `aiython setup` is asked to write (SPEC §7): the flags, checked, and the answers they
// give; interactive.ts asks for whatever the flags leave open. Mistakes are UsageErrors naming
// the flag and the fix.

import { checkApiBase } from "../config/index.js";
import { CAPABILITY_NAMES } from "../capabilities/names.js";
import { ConfigError, UsageError } from "../errors.js";
import { providerOfModel, setupProvider, SETUP_PROVIDERS, type SetupProvider } from "./providers.js";

export interface SetupFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  setKey: boolean;
  profile?: string;
  capability?: string;
  check: boolean;
  nonInteractive: boolean;
  configFile?: string;
}

export interface SetupAnswers {
  provider: SetupProvider;
  baseUrl: string;
  /** As the user gave it (setup adds the provider's prefix when writing). */
  model: string;
  /** The variable the key is read from; null: no key. */
  apiKeyEnv: string | null;
  /** A key typed or piped in now, to store in .aiython/credentials.env; never shown. */
  key: string | null;
}

/** Checks the flags on their own; throws UsageError for the first mistake. */
export function checkFlags(flags: SetupFlags): void {
  if (flags.provider !== undefined && !setupProvider(flags.provider)) {
    throw new UsageError(`--provider: unknown provider '${flags.provider}'; use one of ${SETUP_PROVIDERS.map((p) => p.name).join(", ")}`);
  }
  if (flags.profile !== undefined && (!/^[A-Za-z0-9_-]+$/.test(flags.profile) || flags.profile === "default")) {
    throw new UsageError(`--profile: '${flags.profile}' is not a profile name setup can write; use letters, digits, _ and - (not "default", which is the top level)`);
  }
  if (flags.capability !== undefined && !CAPABILITY_NAMES.includes(flags.capability)) {
    throw new UsageError(`--capability: unknown capability '${flags.capability}'; use one of ${CAPABILITY_NAMES.join(", ")}`);
  }
  if (flags.capability !== undefined && flags.check) {
    throw new UsageError("--check sends a chat request with a tool, so it tests the chat model: drop it when setting a --capability");
  }
  if (flags.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(flags.apiKeyEnv)) {
    throw new UsageError(`--api-key-env: '${flags.apiKeyEnv}' is not an environment variable name; use letters, digits and _`);
  }
  if (flags.baseUrl !== undefined) {
    try {
      checkApiBase(flags.baseUrl, "--base-url");
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (flags.model !== undefined && flags.model.trim() === "") throw new UsageError("--model needs a model id, e.g. --model gpt-4.1-mini");
}

/** The provider the flags name or imply (a prefixed model id, or a base URL for a custom server). */
export function providerFromFlags(flags: SetupFlags): SetupProvider | undefined {
  if (flags.provider !== undefined) return setupProvider(flags.provider);
  const byModel = flags.model === undefined ? undefined : providerOfModel(flags.model);
  if (byModel) return byModel;
  return flags.baseUrl !== undefined ? setupProvider("custom") : undefined;
}

/** The variable a key is read from for this provider, after --api-key-env. */
export function keyEnvFor(provider: SetupProvider, flags: SetupFlags, wantsKey: boolean): string | null {
  if (flags.apiKeyEnv !== undefined) return flags.apiKeyEnv;
  if (provider.keyEnv !== null) return provider.keyEnv;
  return wantsKey ? "OPENAI_API_KEY" : null;
}

/** Answers from the flags alone (--non-interactive, or no terminal); `key` is read by the caller. */
export function answersFromFlags(flags: SetupFlags, key: string | null): SetupAnswers {
  const provider = providerFromFlags(flags);
  if (flags.model === undefined || provider === undefined) {
    const why = flags.nonInteractive ? "setup --non-interactive" : "setup without a terminal";
    throw new UsageError(
      `${why} needs --model ID and a provider: --provider NAME, a prefixed id such as --model openai/gpt-4.1-mini, ` +
        `or --base-url URL for another OpenAI-compatible server (see aiython setup --help)`,
    );
  }
  const baseUrl = flags.baseUrl ?? provider.defaultBase;
  return { provider, baseUrl, model: flags.model, apiKeyEnv: keyEnvFor(provider, flags, key !== null || flags.setKey), key };
}
