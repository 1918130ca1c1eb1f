// The `reranking` capability (SPEC §10): documents ordered by relevance to a query through the
// route's `/rerank` endpoint as Cohere- and Jina-style rerankers serve it (`{model, query,
// documents, top_n}` → `{results: [{index, relevance_score}]}`), called with plain fetch (the
// openai client has no such endpoint). The result is [{index, score, text}], best first, where
// `index` is the document's position in the step's list. Pure and cached.

import type { CapabilityHandler } from "../handler.js";
import { integer, listOf, params, ref, text } from "../plan/schema-parts.js";
import { jsonObject, malformed, viaFetch } from "../service/transport.js";

export const reranking: CapabilityHandler = {
  name: "reranking",
  guide: "reranking {query, documents: [str|{text}], top_n?} -> [{index,score,text}] best first",
  params: params(
    {
      query: text(),
      documents: listOf(ref({ anyOf: [{ type: "string" }, { type: "object", required: ["text"], properties: { text: { type: "string" } } }] }), 1000),
      top_n: integer(1, 1000),
    },
    ["query", "documents"],
  ),
  needs: () => "reranking",
  pure: () => true,
  writesFiles: () => false,
  floats: [["*", "score"]],
  async run(p, ctx) {
    const documents = (p.documents as (string | { text: string })[]).map((d) => (typeof d === "string" ? d : d.text));
    const topN = (p.top_n as number | undefined) ?? documents.length;
    const answer = await ctx.call({
      capability: "reranking",
      endpoint: "/rerank",
      routes: ctx.routes("reranking"),
      request: { query: p.query, documents, top_n: topN },
      cacheable: true,
      effect: false,
      perform: async (route, env) => {
        const body = JSON.stringify({ model: route.model, query: p.query, documents, top_n: topN });
        const response = await viaFetch(route, env, "rerank", { method: "POST", headers: { "content-type": "application/json" }, body });
        const json = await jsonObject(response);
        return { json: { results: resultsOf(json, documents.length) }, usage: { input: usageOf(json) } };
      },
    });
    const results = (answer.json as { results: { index: number; score: number }[] }).results;
    return results.map((r) => ({ index: r.index, score: r.score, text: documents[r.index] }));
  },
};

function resultsOf(json: Record<string, unknown>, count: number): { index: number; score: number }[] {
  const results = json.results;
  if (!Array.isArray(results)) throw malformed("the answer has no results list");
  const out = results.map((r) => {
    const index = (r as { index?: unknown }).index;
    const score = (r as { relevance_score?: unknown }).relevance_score;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || typeof score !== "number") {
      throw malformed("a result lacks a valid index or relevance_score");
    }
    return { index, score };
  });
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}

/** Jina reports `usage.total_tokens`; Cohere bills search units, which per-call pricing covers. */
function usageOf(json: Record<string, unknown>): number | undefined {
  const tokens = (json.usage as { total_tokens?: unknown } | undefined)?.total_tokens;
  return typeof tokens === "number" ? tokens : undefined;
}
