// Walks the project's readable files for list_code_files and search_code (SPEC §9): breadth
// first from a folder, names sorted so answers are stable, hidden / dependency folders and
// virtual environments skipped, symbolic links to folders not followed (no loops), and at most
// CODE_READING_LIMITS.walkEntries directory entries looked at in all.

import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { CODE_READING_LIMITS } from "../../host-tool-defaults.js";
import type { ProjectFiles } from "./project-files.js";

export interface WalkedFile {
  real: string;
  bytes: number;
}

/** Readable files under `start` (a real folder inside the project), in walk order. */
export async function* walkFiles(files: ProjectFiles, start: string): AsyncGenerator<WalkedFile, { complete: boolean }> {
  const queue = [start];
  let seen = 0;
  while (queue.length > 0) {
    const folder = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++seen > CODE_READING_LIMITS.walkEntries) return { complete: false };
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!files.skipsFolder(entry.name) && !(await files.isVirtualEnv(full))) queue.push(full);
      } else if (entry.isFile() && !entry.name.startsWith(".") && files.fileProblem(full) === null) {
        const stat = await fs.stat(full).catch(() => null);
        if (stat) yield { real: full, bytes: stat.size };
      }
    }
  }
  return { complete: true };
}
