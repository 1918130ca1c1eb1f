// The `semantic_search` capability (SPEC §10): the chunks of a local index nearest to a query, by
// exact cosine similarity between the query's embedding (through the embedding route, cached) and
// every stored vector of that index for the same embedding model. The result lists the best `k`
// hits, best first: [{source, chunk, text, score, page, heading}]. Reads only: pure.

import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import { embedTexts, embeddingModelId } from "../embedding/embed-texts.js";
import type { CapabilityHandler } from "../handler.js";
import { StepError } from "../step-error.js";
import { integer, number, params, ref, text } from "../plan/schema-parts.js";
import { nearest } from "./cosine.js";
import { INDEX_NAME } from "./indexing.js";

export const semanticSearch: CapabilityHandler = {
  name: "semantic_search",
  guide: `semantic_search {index, query, k?: 1-${PLAN_DEFAULTS.maxSearchK}, min_score?} -> hits [{source,chunk,text,score,page,heading}] best first`,
  params: params({ index: ref(INDEX_NAME), query: text(), k: integer(1, PLAN_DEFAULTS.maxSearchK), min_score: number(-1, 1) }, ["index", "query"]),
  needs: () => "embedding",
  pure: () => true,
  writesFiles: () => false,
  floats: [["*", "score"]],
  async run(p, ctx) {
    const index = p.index as string;
    const store = await ctx.store();
    const model = embeddingModelId(ctx.routes("embedding")[0]);
    const models = store.modelsOf(index);
    if (models.length === 0) throw new StepError(`index "${index}" is empty or does not exist; add documents to it with an indexing step first`);
    if (!models.includes(model)) {
      throw new StepError(`index "${index}" holds vectors of ${models.join(", ")}, not of the embedding route ${model}; index the documents again with this route`);
    }
    const chunks = store.allChunks(index, model);
    const { vectors } = await embedTexts([p.query as string], ctx);
    const k = (p.k as number | undefined) ?? PLAN_DEFAULTS.searchK;
    const minScore = (p.min_score as number | undefined) ?? -1;
    return nearest(vectors[0], chunks, (c) => c.vector, k)
      .filter((hit) => hit.score >= minScore)
      .map(({ item, score }) => ({ source: item.source, chunk: item.chunk, text: item.text, score: Math.round(score * 1e6) / 1e6, page: item.page, heading: item.heading }));
  },
};
