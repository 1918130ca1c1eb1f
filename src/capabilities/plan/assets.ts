// `{"$asset": path}` (SPEC §10): a file or folder of the project a step reads. A path is relative
// to the project root (or absolute inside it) and must stay inside it after symbolic links are
// followed; hidden folders (`.git`, `.venv`, `.aiython` — except `.aiython/artifacts`, where
// generated media live), aiython.toml and dotenv or credential files are never read. A folder
// stands for its files (hidden and dependency folders skipped), in path order. Contents are read
// only when a step runs; their SHA-256 (cached by size and mtime) keys caches and fingerprints.

import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ARTIFACTS_DIR, PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import { StepError } from "../step-error.js";

export interface Asset {
  /** Project-relative, with "/" separators. */
  rel: string;
  abs: string;
  kind: "file" | "folder";
}

const SKIPPED_FOLDERS = new Set(["node_modules", "__pycache__", "site-packages", "venv", "env"]);
const SECRET_FILE = /^(\.env(\..*)?|.*\.env|credentials(\..*)?|aiython\.toml)$/i;

export class Assets {
  private readonly hashes = new Map<string, { stamp: string; hash: string }>();
  private realRoot: string | null = null;

  constructor(readonly projectRoot: string) {}

  /** The asset at `given`, or the problem with it (naming the path and the rule). */
  check(given: string): Asset | string {
    const abs = path.resolve(this.projectRoot, given);
    const rel = path.relative(this.projectRoot, abs);
    const shown = JSON.stringify(given);
    if (rel.startsWith("..") || path.isAbsolute(rel)) return `$asset ${shown} is outside the project (${this.projectRoot}); use a path inside it`;
    const refusal = refusedPath(rel === "" ? "." : rel);
    if (refusal) return `$asset ${shown}: ${refusal}`;
    let real: string;
    let stat: fs.Stats;
    try {
      real = fs.realpathSync(abs);
      stat = fs.statSync(real);
    } catch {
      return `$asset ${shown} does not exist in the project`;
    }
    const realRel = path.relative(this.root(), real);
    if (realRel.startsWith("..") || path.isAbsolute(realRel)) return `$asset ${shown} leads outside the project through a symbolic link`;
    if (!stat.isFile() && !stat.isDirectory()) return `$asset ${shown} is neither a file nor a folder`;
    if (stat.isFile() && stat.size > PLAN_DEFAULTS.maxAssetBytes) return `$asset ${shown} is larger than ${PLAN_DEFAULTS.maxAssetBytes >> 20} MiB`;
    return { rel: rel === "" ? "." : rel.split(path.sep).join("/"), abs, kind: stat.isDirectory() ? "folder" : "file" };
  }

  /** A file asset itself, or a folder's files (recursively, sorted); `accept` filters by name. */
  files(asset: Asset, accept: (name: string) => boolean = () => true): Asset[] {
    if (asset.kind === "file") return [asset];
    const out: Asset[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name) || SECRET_FILE.test(entry.name)) continue;
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(abs);
        else if (entry.isFile() && accept(entry.name)) out.push({ abs, rel: path.relative(this.projectRoot, abs).split(path.sep).join("/"), kind: "file" });
        if (out.length > PLAN_DEFAULTS.maxAssetFiles) throw new StepError(`$asset "${asset.rel}" holds more than ${PLAN_DEFAULTS.maxAssetFiles} files; name a smaller folder`);
      }
    };
    walk(asset.abs);
    return out;
  }

  read(asset: Asset): Buffer {
    return fs.readFileSync(asset.abs);
  }

  /** SHA-256 of a file's bytes, or of a folder's file names and their hashes. */
  contentHash(asset: Asset): string {
    if (asset.kind === "folder") {
      const hash = createHash("sha256");
      for (const file of this.files(asset)) hash.update(`${file.rel}\0${this.contentHash(file)}\n`);
      return hash.digest("hex");
    }
    const stat = fs.statSync(asset.abs);
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    const known = this.hashes.get(asset.abs);
    if (known?.stamp === stamp) return known.hash;
    const hash = createHash("sha256").update(fs.readFileSync(asset.abs)).digest("hex");
    this.hashes.set(asset.abs, { stamp, hash });
    return hash;
  }

  private root(): string {
    return (this.realRoot ??= fs.realpathSync(this.projectRoot));
  }
}

/** Why a project-relative path may not be read, or null. */
function refusedPath(rel: string): string | null {
  const parts = rel.split(path.sep);
  const artifacts = ARTIFACTS_DIR.split("/");
  const inArtifacts = artifacts.every((part, i) => parts[i] === part);
  if (!inArtifacts && parts.some((part) => part.startsWith(".") && part !== ".")) {
    return "hidden files and folders are not read (generated media under .aiython/artifacts are)";
  }
  if (SECRET_FILE.test(parts[parts.length - 1])) return "configuration and credential files are never read";
  return null;
}
