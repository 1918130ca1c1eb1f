// The scripted model in a run (`script:PATH` routes): its rules files are read and checked before
// the program starts, so a fault in one is a configuration error (exit 78) naming the file, the
// rule and the fix; a profile whose first route is a script is answered by the scripted port, in
// this process, under the run's max_concurrency like any model.

import type { ProfileSettings, ResolvedConfig } from "../config/index.js";
import type { ModelPort } from "../model-port.js";
import { checkRulesFiles, scriptedModel } from "../scripted-model/index.js";
import type { RunCommand } from "./run-command.js";

/** Reads every rules file a profile's routes name, unless the run replays without sending (it never asks them). */
export async function checkScriptedRoutes(config: ResolvedConfig, command: RunCommand): Promise<void> {
  if (command.replay && !command.replay.fill) return;
  const files = [...config.profiles.values()].flatMap((profile) => profile.routes.filter((r) => r.provider === "script").map((r) => r.model));
  if (files.length > 0) await checkRulesFiles(files, process.cwd());
}

/** The scripted port of a profile whose first route is a script, or null. */
export function scriptedPort(profile: ProfileSettings): ModelPort | null {
  const route = profile.routes[0];
  if (route?.provider !== "script") return null;
  return scriptedModel({ id: route.id, file: route.model }, process.env);
}
