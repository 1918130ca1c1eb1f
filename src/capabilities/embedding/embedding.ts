// The `embedding` capability (SPEC §10): one text or a list of texts to vectors, through the
// route's `/v1/embeddings`. The result is the vector (a list of floats) for one text, or one vector
// per text in order for a list. Pure and cached.

import type { CapabilityHandler } from "../handler.js";
import { params, ref, text } from "../plan/schema-parts.js";
import { embedTexts } from "./embed-texts.js";

export const embedding: CapabilityHandler = {
  name: "embedding",
  guide: "embedding {input: str|[str]} -> vector or list of vectors",
  params: params(
    {
      input: ref({
        anyOf: [
          { type: "string", minLength: 1 },
          { type: "array", minItems: 1, maxItems: 2048, items: text() },
        ],
      }),
    },
    ["input"],
  ),
  needs: () => "embedding",
  pure: () => true,
  writesFiles: () => false,
  floats: [["*"], ["*", "*"]],
  async run(p, ctx) {
    const input = p.input as string | string[];
    const { vectors } = await embedTexts(typeof input === "string" ? [input] : input, ctx);
    return typeof input === "string" ? vectors[0] : vectors;
  },
};
