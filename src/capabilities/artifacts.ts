// Generated media (SPEC §10): files under `.aiython/artifacts/` of the project, named for what they
// are — `speech-summary-3fa2c1d0.mp3`, `image-logo-1a2b3c4d-2.png`, `video-clip-9e8f7a6b.mp4`:
// the kind, the step's `name` param or id, and 8 hex digits of the call's key, so the same call
// (a replay, a cache hit, a resumed job) always writes the same file. Written atomically (a
// temporary name, then rename); `.aiython/` is created owner-only with a `.gitignore`, as the
// journal creates it.

import fs from "node:fs";
import path from "node:path";
import { JOURNAL_DIR, JOURNAL_DIR_MODE } from "../defaults.js";
import { ARTIFACTS_DIR } from "../host-tool-defaults.js";

export type ArtifactKind = "speech" | "image" | "edited-image" | "video";

export class Artifacts {
  constructor(readonly projectRoot: string) {}

  /** The file name an artifact gets (no folder). */
  name(kind: ArtifactKind, stem: string, key: string, ext: string, index: number | null = null): string {
    const slug =
      stem
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40) || kind;
    return `${kind}-${slug}-${key.slice(0, 8)}${index === null ? "" : `-${index}`}.${ext.replace(/[^a-z0-9]/gi, "") || "bin"}`;
  }

  /** Absolute path of an artifact name. */
  pathOf(name: string): string {
    return path.join(this.projectRoot, ARTIFACTS_DIR, name);
  }

  write(name: string, bytes: Uint8Array): string {
    this.prepare();
    const target = this.pathOf(name);
    const temporary = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, bytes, { mode: 0o600 });
    fs.renameSync(temporary, target);
    return target;
  }

  private prepare(): void {
    const state = path.join(this.projectRoot, JOURNAL_DIR);
    if (!fs.existsSync(state)) {
      fs.mkdirSync(state, { mode: JOURNAL_DIR_MODE });
      fs.writeFileSync(path.join(state, ".gitignore"), "# aiython's per-project state (journal, credentials); never commit it\n*\n", { mode: 0o600 });
    }
    fs.mkdirSync(path.join(this.projectRoot, ARTIFACTS_DIR), { recursive: true, mode: JOURNAL_DIR_MODE });
  }
}

/** The file extension a media type usually has. */
export function extensionOf(mime: string | null, fallback: string): string {
  const known: Record<string, string> = {
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/ogg": "ogg",
    "audio/opus": "opus",
    "audio/aac": "aac",
    "audio/flac": "flac",
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/webp": "webp",
    "image/gif": "gif",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/quicktime": "mov",
  };
  return (mime && known[mime.split(";")[0].trim().toLowerCase()]) || fallback;
}
