// The `vision` capability (SPEC §10): a question or instruction about images, answered by the
// route's chat model with image parts. Images are `{"$asset": path}` (a file, or a folder of
// images) or http(s) URLs. The result is the model's text. Pure and cached.

import type { CapabilityHandler } from "../handler.js";
import { asset, integer, listOf, oneOf, params, ref, text } from "../plan/schema-parts.js";
import { askChat } from "./ask-chat.js";
import { imageParts } from "./image-parts.js";

export const vision: CapabilityHandler = {
  name: "vision",
  guide: "vision {prompt, images: [$asset or url], detail?: low|high|auto} -> text",
  params: params(
    { prompt: text(), images: listOf(ref({ anyOf: [asset, { type: "string", minLength: 1 }] }), 16), detail: oneOf(["low", "high", "auto"]), max_tokens: integer(1, 16384) },
    ["prompt", "images"],
  ),
  needs: () => "vision",
  pure: () => true,
  writesFiles: () => false,
  floats: [],
  async run(p, ctx) {
    const { parts, keys } = imageParts(p.images as unknown[], ctx, p.detail as string | undefined);
    return askChat(
      {
        capability: "vision",
        system: null,
        content: [{ type: "text", text: p.prompt as string }, ...parts],
        request: { prompt: p.prompt, images: keys, detail: p.detail ?? null },
        maxTokens: p.max_tokens as number | undefined,
      },
      ctx,
    );
  },
};
