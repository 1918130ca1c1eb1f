// Which project files the code-reading tools may show (SPEC §9), and how a path the model gives
// is turned into one. The rules, applied to the path as given and again to its real path (so a
// symbolic link cannot lead outside them):
//   - relative to the project root, inside it: no absolute path, no `..`;
//   - no hidden file or folder (a name starting with "."), no dependency or cache folder
//     (node_modules, site-packages, dist-packages, __pypackages__, __pycache__, and any folder
//     holding pyvenv.cfg: a virtual environment);
//   - no configuration or credential file (aiython.toml, env files, keys and certificates, the
//     profiles' env_file), and only text files with a code or documentation suffix.

import fs from "node:fs/promises";
import path from "node:path";

const DEPENDENCY_FOLDERS = new Set(["node_modules", "site-packages", "dist-packages", "__pypackages__", "__pycache__"]);
export const READABLE_SUFFIXES = new Set([
  ".py",
  ".pyi",
  ".pyw",
  ".pyx",
  ".pxd",
  ".pxi",
  ".md",
  ".rst",
  ".txt",
  ".sh",
  ".bash",
  ".c",
  ".h",
  ".cc",
  ".cpp",
  ".hpp",
  ".rs",
  ".go",
  ".java",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".tsx",
  ".jsx",
  ".rb",
  ".lua",
  ".sql",
  ".html",
  ".css",
]);
const SECRET_NAMES = /^(aiython\.toml|credentials(\..*)?|secrets?(\..*)?|id_(rsa|dsa|ecdsa|ed25519)(\..*)?|.*\.(env|pem|key|p12|pfx|crt|cer|keystore|jks))$/i;

export class PathRefused extends Error {}

export class ProjectFiles {
  /** `root`: the project root's real path; `secretFiles`: absolute paths never shown (env_file). */
  constructor(
    readonly root: string,
    private readonly secretFiles: ReadonlySet<string> = new Set(),
  ) {}

  /** The absolute path of a readable file or folder the model named; PathRefused says why not. */
  async resolve(given: string, kind: "file" | "folder"): Promise<string> {
    const relative = this.checkGiven(given);
    const absolute = path.join(this.root, relative);
    let real: string;
    try {
      real = await fs.realpath(absolute);
    } catch {
      throw new PathRefused(`${JSON.stringify(given)} does not exist in the project; list_code_files shows what does`);
    }
    const inside = path.relative(this.root, real);
    if (inside.startsWith("..") || path.isAbsolute(inside)) throw new PathRefused(`${JSON.stringify(given)} leads outside the project`);
    if (inside !== "") this.checkSegments(inside, given);
    const stat = await fs.stat(real);
    if (kind === "folder" && !stat.isDirectory()) throw new PathRefused(`${JSON.stringify(given)} is not a folder`);
    if (kind === "file") {
      if (!stat.isFile()) throw new PathRefused(`${JSON.stringify(given)} is not a file`);
      const problem = this.fileProblem(real);
      if (problem) throw new PathRefused(`${JSON.stringify(given)} ${problem}`);
    }
    for (let folder = kind === "folder" ? real : path.dirname(real); folder.length >= this.root.length && folder !== this.root; folder = path.dirname(folder)) {
      if (await this.isVirtualEnv(folder)) throw new PathRefused(`${JSON.stringify(given)} is inside a virtual environment (${this.shown(folder)})`);
    }
    return real;
  }

  /** Why a file (real path, already inside the project) may not be shown, or null. */
  fileProblem(real: string): string | null {
    const name = path.basename(real);
    if (SECRET_NAMES.test(name) || this.secretFiles.has(real)) return "is a configuration or credential file, which the code tools never show";
    if (!READABLE_SUFFIXES.has(path.extname(name).toLowerCase())) return `is not a source or text file the code tools show (suffixes: ${[...READABLE_SUFFIXES].join(" ")})`;
    return null;
  }

  /** Whether a folder met while walking is skipped (hidden, dependency, cache). */
  skipsFolder(name: string): boolean {
    return name.startsWith(".") || DEPENDENCY_FOLDERS.has(name);
  }

  async isVirtualEnv(folder: string): Promise<boolean> {
    try {
      await fs.access(path.join(folder, "pyvenv.cfg"));
      return true;
    } catch {
      return false;
    }
  }

  /** Project-relative display path of a real path inside the project. */
  shown(real: string): string {
    return path.relative(this.root, real).split(path.sep).join("/") || ".";
  }

  private checkGiven(given: string): string {
    if (given.includes("\0")) throw new PathRefused("the path holds a NUL character");
    if (path.isAbsolute(given)) throw new PathRefused(`${JSON.stringify(given)} is absolute; give a path relative to the project root`);
    const normal = path.normalize(given);
    if (normal === "." || normal === "./") return "";
    this.checkSegments(normal, given);
    return normal;
  }

  private checkSegments(relative: string, given: string): void {
    for (const segment of relative.split(path.sep)) {
      if (segment === "" || segment === ".") continue;
      if (segment === "..") throw new PathRefused(`${JSON.stringify(given)} uses ".."; paths stay inside the project`);
      if (segment.startsWith(".")) throw new PathRefused(`${JSON.stringify(given)} is hidden (${segment}); the code tools never show hidden files or folders`);
      if (DEPENDENCY_FOLDERS.has(segment)) throw new PathRefused(`${JSON.stringify(given)} is inside ${segment}, a dependency or cache folder`);
    }
  }
}
