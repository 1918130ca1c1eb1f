// Reading a rules file once per run: through the configuration room's reader (UTF-8 checked, TOML
// parsed by smol-toml with integers kept apart from floats), then checked by rules.ts. The run
// reads it before the program starts (a fault is a configuration error, exit 78); the scripted
// port's calls reuse that reading.

import { displayPath, parseTomlText, readConfigText } from "../config/index.js";
import { rulesOf, type Rules } from "./rules.js";

const read = new Map<string, Promise<Rules>>();

export function loadRules(file: string, cwd = process.cwd()): Promise<Rules> {
  let rules = read.get(file);
  if (!rules) {
    const shown = displayPath(file, cwd);
    rules = (async () => rulesOf(await parseTomlText(readConfigText(file, shown), shown, { exactNumbers: true }), shown))();
    read.set(file, rules);
  }
  return rules;
}

/** Every rules file the run's routes name, read and checked now; throws the first fault. */
export async function checkRulesFiles(files: Iterable<string>, cwd: string): Promise<void> {
  for (const file of new Set(files)) await loadRules(file, cwd);
}
