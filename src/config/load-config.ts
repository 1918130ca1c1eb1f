// Loading configuration (SPEC §7): find aiython.toml (or take --config), parse and validate it,
// resolve profiles, routes and where each key comes from; without a file, the environment-only
// form. Every fault is a ConfigError (exit 78) raised before the program starts. smol-toml and
// the schema validator are imported only when a file is found.

import path from "node:path";
import { ConfigError } from "../errors.js";
import { CredentialLookup } from "./credentials.js";
import { DEFAULT_PROFILE } from "../defaults.js";
import { discoverConfigFile, discoveryStart, explicitConfigFile } from "./discover.js";
import { displayPath } from "./display-path.js";
import { profilesFromDocument } from "./document-form.js";
import { environmentProfile } from "./environment-form.js";
import { parseTomlText, readConfigText } from "./parse-toml.js";
import { checkedDocument, rememberDocument } from "./checked-document.js";
import { profileFor } from "./profile-for.js";
import type { ConfigInputs, ProfileSettings, ResolvedConfig } from "./types.js";
import type { ConfigDocument } from "./schema.js";
import { validateDocument } from "./validate-document.js";

export async function loadConfig(inputs: ConfigInputs): Promise<ResolvedConfig> {
  if (inputs.profile !== undefined && inputs.forceProfile !== undefined) {
    throw new ConfigError("--profile and --force-profile cannot be used together; keep one of them");
  }
  const start = discoveryStart(inputs.scriptPath, inputs.cwd);
  const file = inputs.configFile !== undefined ? explicitConfigFile(inputs.configFile, inputs.cwd) : discoverConfigFile(start);
  const selected = inputs.forceProfile ?? inputs.profile ?? DEFAULT_PROFILE;
  const modelFlag = inputs.model !== undefined && inputs.model.trim() !== "" ? inputs.model.trim() : undefined;

  let profiles: Map<string, ProfileSettings>;
  let projectRoot: string;
  if (file === null) {
    projectRoot = start;
    const credentials = new CredentialLookup(inputs.env, projectRoot, inputs.cwd);
    profiles = new Map([[DEFAULT_PROFILE, environmentProfile(modelFlag, inputs.env, credentials, inputs.cwd)]]);
  } else {
    projectRoot = path.dirname(file);
    const configName = displayPath(file, inputs.cwd);
    const doc = await documentOf(file, configName, projectRoot, inputs.env);
    profiles = profilesFromDocument(doc, {
      configName,
      projectRoot,
      credentials: new CredentialLookup(inputs.env, projectRoot, inputs.cwd),
      modelOverride: modelFlag === undefined ? null : { id: modelFlag, profile: selected },
    });
  }

  const config: ResolvedConfig = {
    path: file,
    projectRoot,
    defaultProfile: selected,
    forcedProfile: inputs.forceProfile ?? null,
    profiles,
    modelConfigured: [...profiles.values()].some((p) => p.routes.length > 0),
  };
  profileFor(config, null); // an unknown --profile / --force-profile fails here, before the program starts
  return config;
}

/** The file's document: parsed and validated, or as it was the last time this text passed. */
async function documentOf(file: string, configName: string, projectRoot: string, env: NodeJS.ProcessEnv): Promise<ConfigDocument> {
  const text = readConfigText(file, configName);
  const checked = checkedDocument(projectRoot, file, text, env);
  if (checked !== undefined) return checked as ConfigDocument;
  const doc = await validateDocument(configName, await parseTomlText(text, configName));
  rememberDocument(projectRoot, file, text, doc, env);
  return doc;
}
