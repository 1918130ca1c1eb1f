// Images for chat requests (SPEC §10 vision, video understanding): a project file becomes a
// `data:` URL with its media type (by magic bytes, then extension); an http(s) URL is passed as
// it is. The cache key holds a file's SHA-256, never its bytes.

import path from "node:path";
import type { StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import type { ContentPart } from "./ask-chat.js";

const BY_EXTENSION: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

export const IMAGE_EXTENSIONS = new Set(Object.keys(BY_EXTENSION));

export function imageType(name: string, bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return BY_EXTENSION[path.extname(name).toLowerCase()] ?? null;
}

/** Image parts and their cache-key stand-ins for each image value (an `$asset` object or a URL string). */
export function imageParts(images: readonly unknown[], ctx: StepContext, detail: string | undefined): { parts: ContentPart[]; keys: string[] } {
  const parts: ContentPart[] = [];
  const keys: string[] = [];
  for (const image of images) {
    if (typeof image === "string") {
      if (!/^https?:\/\//.test(image)) throw new StepError(`an image is either {"$asset": path} or an http(s) URL, not ${JSON.stringify(image.slice(0, 60))}`);
      parts.push({ type: "image_url", image_url: { url: image, ...(detail ? { detail } : {}) } });
      keys.push(image);
      continue;
    }
    const asset = ctx.asset(image);
    for (const file of ctx.assets.files(asset, (name) => IMAGE_EXTENSIONS.has(path.extname(name).toLowerCase()))) {
      const bytes = ctx.assets.read(file);
      const type = imageType(file.rel, bytes);
      if (!type) throw new StepError(`${file.rel} is not a PNG, JPEG, GIF or WebP image`);
      parts.push({ type: "image_url", image_url: { url: `data:${type};base64,${bytes.toString("base64")}`, ...(detail ? { detail } : {}) } });
      keys.push(`sha256:${ctx.assets.contentHash(file)}`);
    }
  }
  if (parts.length === 0) throw new StepError("no image to look at: the folder holds no PNG, JPEG, GIF or WebP file");
  return { parts, keys };
}
