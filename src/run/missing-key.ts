// A route that needs an API key and has none fails before anything is sent, as the llm CLI does:
// the invocation ends at once with a message naming the variable and the command that stores
// the key, instead of a request that fails at the network (offline: "host name not found") or
// comes back 401. A route needs a key when it goes to a hosted provider at its own base URL, or
// names `api_key_env` (config/providers.ts `keyRequired`). Only the live client is guarded: an
// answer from the journal (`--replay`) needs no key.

import type { ProfileSettings, Route } from "../config/index.js";
import { DEFAULT_PROFILE } from "../defaults.js";
import { ModelCallError, type ModelPort } from "../model-port.js";

/** Why the profile's model cannot be called for want of a key; null when every route that needs one has it. */
export function missingKeyReason(profile: ProfileSettings): string | null {
  const route = profile.routes.find((r: Route) => r.keyRequired && !r.apiKey);
  if (!route) return null;
  const places = ["the environment", ...(profile.envFile ? ["env_file"] : []), ".aiython/credentials.env"].join(", ");
  const setup = `aiython setup --set-key${profile.name === DEFAULT_PROFILE ? "" : ` --profile ${profile.name}`} --model ${route.id}`;
  return `${route.id} needs an API key and ${route.apiKeyEnv} is not set (looked in ${places}); nothing was sent. Set ${route.apiKeyEnv}, or store the key with: ${setup}`;
}

/** A model port that refuses every request with `reason`, sending nothing. */
export function refusingModel(reason: string): ModelPort {
  return {
    async complete() {
      throw new ModelCallError("auth", reason);
    },
  };
}
