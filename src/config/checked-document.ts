// A configuration file that passed the schema once is not parsed or validated again while it is
// the same text and aiython the same build (SPEC §12: a configured start-up costs ≤ 15 ms more
// than an unconfigured one, and smol-toml with the schema validator was most of it). The last
// valid document is kept in `.aiython/cache/config.json` beside the preparation cache: the build,
// the file's path and text, and the parsed document. Only a document that passed is stored, so
// a file with a fault always goes through the parser and the validator and gets their message.
// A stamp that cannot be read, or is for another build, file or text, is ignored; one that cannot
// be written is skipped. AIYTHON_NO_CACHE=1 and a top-level `cache = false` turn it off.

import fs from "node:fs";
import path from "node:path";
import { PREPARATION_CACHE_DIR } from "../defaults.js";
import { CACHE_VERSION } from "../version.js";

interface Stamp {
  build: string;
  file: string;
  text: string;
  doc: unknown;
}

const stampPath = (projectRoot: string) => path.join(projectRoot, PREPARATION_CACHE_DIR, "config.json");

const cacheOff = (env: NodeJS.ProcessEnv) => env.AIYTHON_NO_CACHE === "1";

/** The document stored for exactly this file and text by this build, or undefined. */
export function checkedDocument(projectRoot: string, file: string, text: string, env: NodeJS.ProcessEnv): unknown {
  if (cacheOff(env)) return undefined;
  let stamp: Partial<Stamp>;
  try {
    stamp = JSON.parse(fs.readFileSync(stampPath(projectRoot), "utf8"));
  } catch {
    return undefined;
  }
  const same = stamp.build === CACHE_VERSION && stamp.file === file && stamp.text === text;
  return same && isPlainDocument(stamp.doc) ? stamp.doc : undefined;
}

/** Keeps `doc`, which passed the schema, for the next run (best effort, atomic). */
export function rememberDocument(projectRoot: string, file: string, text: string, doc: unknown, env: NodeJS.ProcessEnv): void {
  if (cacheOff(env) || !isPlainDocument(doc) || (doc as { cache?: unknown }).cache === false) return;
  const target = stampPath(projectRoot);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, JSON.stringify({ build: CACHE_VERSION, file, text, doc } satisfies Stamp), { mode: 0o600 });
    fs.renameSync(temporary, target);
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // `.aiython` or its cache is not a folder (ENOTDIR): there is no temporary file either
    }
  }
}

/** Plain JSON all the way down (a TOML date or a big integer is not, and is never stored). */
function isPlainDocument(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainDocument);
  const prototype = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  // smol-toml makes its tables with no prototype, JSON.parse with Object's; the document is
  // read with Object.hasOwn and Object.entries only (document-form.ts), so either will do.
  if (prototype === null || prototype === Object.prototype) {
    return Object.values(value as object).every(isPlainDocument);
  }
  return false;
}
