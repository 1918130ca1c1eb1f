// Which profile an invocation uses (SPEC §3.3): --force-profile > directive > --profile > the
// config default. An unknown name is a ConfigError that lists the known ones.

import { ConfigError } from "../errors.js";
import type { ProfileSettings, ResolvedConfig } from "./types.js";

export function profileFor(config: ResolvedConfig, directiveProfile: string | null): ProfileSettings {
  let name: string;
  let source: string;
  if (config.forcedProfile !== null) [name, source] = [config.forcedProfile, "--force-profile"];
  else if (directiveProfile !== null) [name, source] = [directiveProfile, "the directive"];
  else [name, source] = [config.defaultProfile, "--profile"];
  const profile = config.profiles.get(name);
  if (profile) return profile;
  const known = [...config.profiles.keys()].join(", ");
  const fix =
    config.path === null
      ? "no aiython.toml was found; create one with `aiython setup` and define the profile under [profiles.NAME]"
      : `define it under [profiles.NAME] in ${config.path}`;
  const shown = JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
  throw new ConfigError(`${source}: unknown profile ${shown}; known profiles: ${known}; ${fix}`);
}
