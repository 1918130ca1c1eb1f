// How configuration files are named in messages: relative to the working directory when inside
// it (`aiython.toml`, `sub/aiython.toml`), absolute otherwise.

import path from "node:path";

export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}
