// The server a file already names, when `aiython setup` changes the model: a new model never moves
// the requests to another server unless the user says so. `setup --model openai/NEW` on a file
// whose table has `api_base = "http://127.0.0.1:8080/v1"` used to drop the api_base, silently
// sending a local server's user's program data to api.openai.com. Now:
//   - an unprefixed `--model` (no --provider, no --base-url) keeps the table's api_base and
//     api_key_env: the same server, another model;
//   - a provider-prefixed one whose server is not the table's is refused, naming both fixes;
//   - an explicit switch (--provider, --base-url, or the interactive provider question) goes
//     ahead, and setup says which api_base it removed (`removedBaseLine`).

import { currentServer } from "../config/index.js";
import { UsageError } from "../errors.js";
import type { SetupFlags } from "./answers.js";
import { providerOfModel } from "./providers.js";

export interface ExistingServer {
  apiBase: string | null;
  apiKeyEnv: string | null;
}

/** The api_base and api_key_env of the table setup will edit (top level, profile or capability), from the file's text. */
export async function existingServer(text: string | null, profile: string | null, capability: string | null): Promise<ExistingServer> {
  return currentServer(text, { profile, capability });
}

/** The flags with the table's server kept for an unprefixed model; throws when a prefix alone would move it. */
export function keepServer(flags: SetupFlags, existing: ExistingServer, shown: string): SetupFlags {
  if (existing.apiBase === null || flags.provider !== undefined || flags.baseUrl !== undefined || flags.model === undefined) return flags;
  const provider = providerOfModel(flags.model);
  if (provider === undefined) return { ...flags, baseUrl: existing.apiBase, apiKeyEnv: flags.apiKeyEnv ?? existing.apiKeyEnv ?? undefined };
  if (provider.defaultBase === existing.apiBase) return flags;
  const bare = flags.model.slice(provider.prefix?.length ?? 0);
  throw new UsageError(
    `${shown} sends requests to api_base = "${existing.apiBase}"; --model ${flags.model} would send them to ${provider.label} (${provider.defaultBase}) instead. ` +
      `To switch, add --provider ${provider.name}; to keep the server, give the model without the prefix: --model ${bare}`,
  );
}

/** What setup says when the keys it writes remove the table's api_base; null when they do not. */
export function removedBaseLine(existing: ExistingServer, written: string | null | undefined, newBase: string): string | null {
  if (existing.apiBase === null || written !== null) return null;
  return `Removed api_base = "${existing.apiBase}": requests now go to ${newBase}.`;
}
