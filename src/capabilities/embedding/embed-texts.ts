// Texts to vectors through `/v1/embeddings` (SPEC §10), shared by the `embedding` capability,
// `indexing` and `semantic_search`. Requests go in batches (PLAN_DEFAULTS.embeddingBatch), each
// one service call (cached 24 h by content, replayable). Only the primary route is used: vectors
// of two models live in different spaces, and an index is tied to one model (`modelId`).

import type { Route } from "../../config/index.js";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import type { StepContext } from "../handler.js";
import { malformed, viaOpenAI } from "../service/transport.js";

export interface Embedded {
  vectors: number[][];
  /** The route id and model the vectors belong to, e.g. "openai/text-embedding-3-small". */
  modelId: string;
}

export function embeddingModelId(route: Route): string {
  return route.id;
}

export async function embedTexts(texts: readonly string[], ctx: StepContext): Promise<Embedded> {
  const route = ctx.routes("embedding")[0];
  const vectors: number[][] = [];
  for (let at = 0; at < texts.length; at += PLAN_DEFAULTS.embeddingBatch) {
    const batch = texts.slice(at, at + PLAN_DEFAULTS.embeddingBatch);
    const answer = await ctx.call({
      capability: "embedding",
      endpoint: "/embeddings",
      routes: [route],
      request: { input: batch },
      cacheable: true,
      effect: false,
      perform: (r, env) =>
        viaOpenAI(r, env, async (client, options) => {
          const response = await client.embeddings.create({ model: r.model, input: [...batch], encoding_format: "float" }, options);
          return { json: { vectors: vectorsOf(response, batch.length) }, usage: { input: response.usage?.prompt_tokens } };
        }),
    });
    vectors.push(...(answer.json as { vectors: number[][] }).vectors);
  }
  return { vectors, modelId: embeddingModelId(route) };
}

function vectorsOf(response: unknown, count: number): number[][] {
  const data = (response as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== count) throw malformed(`expected ${count} embeddings, got ${Array.isArray(data) ? data.length : "none"}`);
  const ordered = [...data].sort((a, b) => Number((a as { index?: number }).index ?? 0) - Number((b as { index?: number }).index ?? 0));
  return ordered.map((item) => {
    const vector = (item as { embedding?: unknown }).embedding;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw malformed("an embedding is not a list of numbers (the route may not serve float embeddings)");
    }
    return vector as number[];
  });
}
