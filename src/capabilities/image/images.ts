// The `image_generation` and `image_editing` capabilities (SPEC §10): images drawn from a prompt
// (`/v1/images/generations`) or an image edited by one (`/v1/images/edits`, multipart with an
// optional mask), through the openai client. Images come back as base64 (or as URLs, fetched once)
// and are written to `.aiython/artifacts/image-NAME-KEY.png` (`edited-image-…` for edits; `-N`
// when n > 1). The result is the path, or a list of paths when n > 1. They write files: not pure,
// not cached (recorded for --replay while the journal records).

import path from "node:path";
import { extensionOf, type ArtifactKind } from "../artifacts.js";
import type { CapabilityHandler, StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import { asset, integer, params, text } from "../plan/schema-parts.js";
import type { ServiceResult } from "../service/call-service.js";
import { malformed, viaOpenAI } from "../service/transport.js";
import { imageType } from "../vision/image-parts.js";

const common = { prompt: text(), n: integer(1, 10), size: text(), quality: text(), name: text() };

export const imageGeneration: CapabilityHandler = {
  name: "image_generation",
  guide: "image_generation {prompt, n?, size?, quality?, name?} -> image file path (list when n>1)",
  params: params(common, ["prompt"]),
  needs: () => "image_generation",
  pure: () => false,
  writesFiles: () => true,
  floats: [],
  run: (p, ctx) => images(p, ctx, "image"),
};

export const imageEditing: CapabilityHandler = {
  name: "image_editing",
  guide: "image_editing {image: $asset, prompt, mask?: $asset, n?, size?, name?} -> edited image path (list when n>1)",
  params: params({ ...common, image: asset, mask: asset }, ["image", "prompt"]),
  needs: () => "image_editing",
  pure: () => false,
  writesFiles: () => true,
  floats: [],
  run: (p, ctx) => images(p, ctx, "edited-image"),
};

async function images(p: Record<string, unknown>, ctx: StepContext, kind: ArtifactKind): Promise<string | string[]> {
  const capability = kind === "image" ? "image_generation" : "image_editing";
  const n = (p.n as number | undefined) ?? 1;
  const options = { prompt: p.prompt as string, n, ...(p.size ? { size: p.size as string } : {}), ...(p.quality ? { quality: p.quality as string } : {}) };
  const files = kind === "image" ? [] : [ctx.asset(p.image), ...(p.mask === undefined ? [] : [ctx.asset(p.mask)])];
  for (const file of files) if (file.kind !== "file") throw new StepError(`$asset "${file.rel}" is a folder; give one image file`);
  const answer = await ctx.call({
    capability,
    endpoint: kind === "image" ? "/images/generations" : "/images/edits",
    routes: ctx.routes(capability),
    request: { ...options, files: files.map((f) => `sha256:${ctx.assets.contentHash(f)}`) },
    cacheable: false,
    effect: true,
    perform: (route, env) =>
      viaOpenAI(route, env, async (client, requestOptions, mod) => {
        const upload = (i: number) => mod.toFile(ctx.assets.read(files[i]), path.basename(files[i].rel));
        const response =
          kind === "image"
            ? await client.images.generate({ model: route.model, ...options } as never, requestOptions)
            : await client.images.edit({ model: route.model, ...options, image: await upload(0), ...(files[1] ? { mask: await upload(1) } : {}) } as never, requestOptions);
        return packed(response, env.signal);
      }),
  });
  const { images: parts } = answer.json as { images: { mime: string; offset: number; length: number }[] };
  const blob = answer.blob ?? Buffer.alloc(0);
  const stem = (p.name as string | undefined) ?? ctx.stepId;
  const paths = parts.map((part, i) =>
    ctx.artifacts.write(
      ctx.artifacts.name(kind, stem, answer.key, extensionOf(part.mime, "png"), parts.length > 1 ? i + 1 : null),
      blob.subarray(part.offset, part.offset + part.length),
    ),
  );
  return paths.length === 1 ? paths[0] : paths;
}

/** An image the provider answered with by URL; the answer is unusable if it cannot be fetched. */
async function download(url: string, signal: AbortSignal): Promise<Buffer> {
  try {
    const response = await fetch(url, { signal });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw malformed(`an image URL of the answer could not be fetched (${(error as Error).message})`);
  }
}

/** All images of an answer in one blob, with their offsets (a service result holds one blob). */
async function packed(response: unknown, signal: AbortSignal): Promise<ServiceResult> {
  const data = (response as { data?: { b64_json?: unknown; url?: unknown }[] }).data;
  if (!Array.isArray(data) || data.length === 0) throw malformed("the answer holds no image");
  const buffers: Buffer[] = [];
  for (const item of data) {
    if (typeof item.b64_json === "string") buffers.push(Buffer.from(item.b64_json, "base64"));
    else if (typeof item.url === "string") buffers.push(await download(item.url, signal));
    else throw malformed("an image has neither b64_json nor url");
  }
  let offset = 0;
  const images = buffers.map((b) => {
    const part = { mime: imageType("", b) ?? "image/png", offset, length: b.length };
    offset += b.length;
    return part;
  });
  const usage = (response as { usage?: { input_tokens?: number; output_tokens?: number } }).usage;
  return { json: { images }, blob: Buffer.concat(buffers), usage: { input: usage?.input_tokens, output: usage?.output_tokens } };
}
