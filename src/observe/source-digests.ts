// The digests of a run's source files (SPEC §11.2): the entry and every project module it
// imported, by path relative to the project root (absolute outside it), so that `aiython resume`
// can tell which changed since. A file that cannot be read now is left out. Loaded with the
// journal (node:crypto is not a start-up cost of a run that records nothing).

import { createHash } from "node:crypto";
import fs from "node:fs";
import { projectPath } from "./project-path.js";

export interface FileDigest {
  path: string;
  sha256: string;
}

export function digestsOf(files: Iterable<string>, projectRoot: string): FileDigest[] {
  const digests: FileDigest[] = [];
  for (const file of files) {
    const digest = digestOf(file);
    if (digest !== null) digests.push({ path: projectPath(file, projectRoot), sha256: digest });
  }
  return digests;
}

/** SHA-256 of a file's bytes, or null when it cannot be read. */
export function digestOf(file: string): string | null {
  try {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
}
