// The `indexing` capability (SPEC §10): documents into a named local index in the project's
// SQLite — files and folders as `{"$asset": path}` (text, Markdown, PDF) and inline
// `documents: [{id, text}]` — chunked locally, embedded through the embedding route, stored with
// their vectors. An index is tied to the embedding model: the same name holds separate vectors per
// model. Indexing again embeds only chunks whose text changed, and a folder drops the sources that
// left it. Not pure (it writes the index), so it runs alone; its embedding calls are still cached.

import { createHash } from "node:crypto";
import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import { chunkPages, type Chunk } from "../document/chunk-text.js";
import { extractText, isDocumentName } from "../document/extract-text.js";
import { embedTexts, embeddingModelId } from "../embedding/embed-texts.js";
import type { CapabilityHandler, StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import { asset, integer, listOf, params, ref, text } from "../plan/schema-parts.js";
import type { CapabilityStore, IndexedChunk } from "../store.js";

export const INDEX_NAME = { type: "string", pattern: "^[A-Za-z0-9_.-]{1,64}$" };

interface Source {
  name: string;
  chunks: Chunk[];
}

export const indexing: CapabilityHandler = {
  name: "indexing",
  guide: "indexing {index: name, files?: [$asset file or folder], documents?: [{id,text}]} -> {index,sources,chunks,embedded}",
  params: params(
    {
      index: ref(INDEX_NAME),
      files: listOf(asset, 256),
      documents: listOf(ref({ type: "object", properties: { id: text(), text: text() }, required: ["id", "text"], additionalProperties: false })),
      chunk_chars: integer(200, 20_000),
    },
    ["index"],
  ),
  needs: () => "embedding",
  pure: () => false,
  writesFiles: () => false,
  floats: [],
  async run(p, ctx) {
    if (p.files === undefined && p.documents === undefined) throw new StepError(`give "files" ([{"$asset": path}]) or "documents" ([{id, text}]) to index`);
    const index = p.index as string;
    const size = (p.chunk_chars as number | undefined) ?? PLAN_DEFAULTS.chunkChars;
    const { sources, folders } = await readSources(p, ctx, size);
    const store = await ctx.store();
    const model = embeddingModelId(ctx.routes("embedding")[0]);
    const embedded = await storeSources(store, index, model, sources, ctx);
    const present = new Set(sources.map((s) => s.name));
    let removed = 0;
    for (const stale of store.sourcesOf(index, model)) {
      if (present.has(stale) || !folders.some((folder) => folder === "." || stale.startsWith(`${folder}/`))) continue;
      store.removeSource(index, model, stale);
      removed += 1;
    }
    const chunks = sources.reduce((sum, s) => sum + s.chunks.length, 0);
    return { index, model, sources: sources.length, chunks, embedded, removed };
  },
};

async function readSources(p: Record<string, unknown>, ctx: StepContext, size: number): Promise<{ sources: Source[]; folders: string[] }> {
  const sources: Source[] = [];
  const folders: string[] = [];
  for (const value of (p.files as unknown[] | undefined) ?? []) {
    const root = ctx.asset(value);
    if (root.kind === "folder") folders.push(root.rel);
    for (const file of ctx.assets.files(root, isDocumentName)) {
      const { pages, format } = await extractText(file.rel, ctx.assets.read(file));
      sources.push({ name: file.rel, chunks: chunkPages(pages, size, format === "pdf") });
    }
  }
  for (const doc of (p.documents as { id: string; text: string }[] | undefined) ?? []) sources.push({ name: doc.id, chunks: chunkPages([doc.text], size) });
  return { sources, folders };
}

/** Writes every changed source; returns how many chunks needed new vectors. */
async function storeSources(store: CapabilityStore, index: string, model: string, sources: Source[], ctx: StepContext): Promise<number> {
  const plans = sources.map((source) => {
    const old = store.chunksOf(index, model, source.name);
    const known = new Map(old.map((c) => [c.hash, c.vector]));
    const hashes = source.chunks.map((c) => sha256(c.text));
    const unchanged = old.length === hashes.length && old.every((c, i) => c.hash === hashes[i]);
    return { source, known, hashes, unchanged };
  });
  const missing = new Map<string, string>();
  for (const plan of plans) {
    if (plan.unchanged) continue;
    plan.source.chunks.forEach((chunk, i) => {
      if (!plan.known.has(plan.hashes[i])) missing.set(plan.hashes[i], chunk.text);
    });
  }
  const fresh = new Map<string, Float32Array>();
  if (missing.size > 0) {
    const { vectors } = await embedTexts([...missing.values()], ctx);
    for (const [i, hash] of [...missing.keys()].entries()) fresh.set(hash, Float32Array.from(vectors[i]));
  }
  for (const plan of plans) {
    if (plan.unchanged) continue;
    const rows: IndexedChunk[] = plan.source.chunks.map((chunk, i) => ({
      source: plan.source.name,
      chunk: i,
      text: chunk.text,
      hash: plan.hashes[i],
      page: chunk.page,
      heading: chunk.heading,
      vector: plan.known.get(plan.hashes[i]) ?? (fresh.get(plan.hashes[i]) as Float32Array),
    }));
    store.putSource(index, model, plan.source.name, rows);
  }
  return missing.size;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
