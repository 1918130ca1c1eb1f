// Paths as the journal keeps them (SPEC §11): relative to the project root when inside it, so a
// journal stays meaningful in another checkout of the project (CI, §11.3); absolute outside it.

import path from "node:path";

/** A path as the journal keeps it: relative to the project root when inside it. */
export function projectPath(file: string, projectRoot: string): string {
  const relative = path.relative(projectRoot, path.resolve(projectRoot, file));
  return relative === "" ? "." : relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(projectRoot, file) : relative;
}
