// The projects both start-up instruction counts run in: a folder with a .git (so it is the
// project), hello.py, and an aiython.toml naming a model at an address nothing answers (configured
// runs prepare and checkpoint the program but never ask).

import fs from "node:fs";
import path from "node:path";

export const CONFIGURED_TOML = 'version = 3\nmodel = { model = "bench-model", api_base = "http://127.0.0.1:9/v1" }\n';

/** `dir/name`, made with hello.py and, unless `toml` is null, that aiython.toml. */
export function helloProject(dir: string, name: string, toml: string | null): string {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.writeFileSync(path.join(root, "hello.py"), 'print("hello")\n');
  if (toml !== null) fs.writeFileSync(path.join(root, "aiython.toml"), toml);
  return root;
}
