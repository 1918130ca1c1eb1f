// Temporary project folders for tests: a fresh folder under the system's temp dir (real path,
// so it compares equal to what Python and Node report), a `.git/` marker so configuration
// discovery stops there (SPEC §7), and the files asked for — text, or a copy of a fixture.
// Every folder made here is removed when the test process exits.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Relative path → file text, or `{ copy: path }` of a file to copy. */
export type ProjectFiles = Record<string, string | { copy: string }>;

const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempProject(files: ProjectFiles = {}, options: { git?: boolean; prefix?: string } = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? "aiython-test-")));
  made.push(dir);
  if (options.git !== false) fs.mkdirSync(path.join(dir, ".git"));
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (typeof content === "string") fs.writeFileSync(target, content);
    else fs.copyFileSync(content.copy, target);
  }
  return dir;
}
