// The `document_understanding` capability (SPEC §10): a document — `{"$asset": path}` to a text,
// Markdown or PDF file, or `text` given inline — chunked locally. Without a `question` the result
// is the chunks ([{index, text, page, heading}]) and no route is needed; with one, the route's chat
// model answers it from the document's text (at most PLAN_DEFAULTS.maxDocumentPromptChars of it)
// and the result is the answer's text. Pure; a question is cached.

import { PLAN_DEFAULTS } from "../../host-tool-defaults.js";
import type { CapabilityHandler, StepContext } from "../handler.js";
import { StepError } from "../step-error.js";
import { asset, integer, params, text } from "../plan/schema-parts.js";
import { askChat } from "../vision/ask-chat.js";
import { chunkPages, type Chunk } from "./chunk-text.js";
import { extractText } from "./extract-text.js";

const SYSTEM = "Answer the question from the document only. If the document does not answer it, say so.";

export const documentUnderstanding: CapabilityHandler = {
  name: "document_understanding",
  guide: "document_understanding {document: $asset (.md/.txt/.pdf) | text, question?, chunk_chars?} -> answer text, or chunks [{index,text,page,heading}] without question",
  params: params({ document: asset, text: text(), question: text(), chunk_chars: integer(200, 20_000) }),
  needs: (p) => (p.question === undefined ? null : "document_understanding"),
  pure: () => true,
  writesFiles: () => false,
  floats: [],
  async run(p, ctx) {
    const { chunks, name, key } = await documentChunks(p, ctx);
    if (p.question === undefined) return chunks;
    const body = bounded(chunks);
    return askChat(
      {
        capability: "document_understanding",
        system: SYSTEM,
        content: [{ type: "text", text: `Document ${name}:\n\n${body}\n\nQuestion: ${p.question as string}` }],
        request: { document: key, question: p.question, chunk_chars: p.chunk_chars ?? null },
      },
      ctx,
    );
  },
};

async function documentChunks(p: Record<string, unknown>, ctx: StepContext): Promise<{ chunks: Chunk[]; name: string; key: string }> {
  const size = (p.chunk_chars as number | undefined) ?? PLAN_DEFAULTS.chunkChars;
  if ((p.document === undefined) === (p.text === undefined)) throw new StepError(`give exactly one of "document" ({"$asset": path}) and "text"`);
  if (typeof p.text === "string") return { chunks: chunkPages([p.text], size), name: "(text)", key: `text:${p.text}` };
  const file = ctx.asset(p.document);
  if (file.kind !== "file") throw new StepError(`$asset "${file.rel}" is a folder; document_understanding reads one file (use indexing for a folder)`);
  const extracted = await extractText(file.rel, ctx.assets.read(file));
  return { chunks: chunkPages(extracted.pages, size, extracted.format === "pdf"), name: file.rel, key: `sha256:${ctx.assets.contentHash(file)}` };
}

function bounded(chunks: readonly Chunk[]): string {
  let out = "";
  for (const chunk of chunks) {
    const where = chunk.page === null ? "" : `[page ${chunk.page}] `;
    const next = `${where}${chunk.text}\n\n`;
    if (out.length + next.length > PLAN_DEFAULTS.maxDocumentPromptChars) break;
    out += next;
  }
  return out.trimEnd();
}
