// The public surface of configuration loading (SPEC §7); callers import from here only.

export { loadConfig } from "./load-config.js";
export { profileFor } from "./profile-for.js";
export { renderConfigShow, configSummaryForExplain, credentialConfigured } from "./render-config.js";
export { KNOWN_PROVIDERS, SCRIPT_PREFIX, checkApiBase } from "./providers.js";
export { CredentialLookup } from "./credentials.js";
export { discoverConfigFile } from "./discover.js";
export { displayPath } from "./display-path.js";
export { currentServer, editConfigText, type ConfigEdit, type RouteKeys } from "./edit-config.js";
export { storeCredential, ignoreAiythonFolder } from "./store-credential.js";
export { parseTomlText, readConfigText } from "./parse-toml.js";
export { CONFIG_DEFAULTS, CONFIG_FILE_NAME, CREDENTIALS_FILE } from "../defaults.js";
export { PERMISSIONS } from "./types.js";
export type {
  CapabilityPrice,
  CapabilitySettings,
  ConfigInputs,
  CredentialSource,
  Permission,
  ProfileSettings,
  ProviderName,
  ResolvedConfig,
  Route,
} from "./types.js";
