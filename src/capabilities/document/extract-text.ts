// The text of a document file (SPEC §10 document_understanding, indexing): plain text and
// Markdown as they are (UTF-8, a BOM dropped), PDF through unpdf (pdf.js for servers), loaded only
// when a PDF is read. A PDF yields one text per page, so chunks can say where they come from.

import path from "node:path";
import { StepError } from "../step-error.js";

export const TEXT_EXTENSIONS = new Set([".md", ".markdown", ".txt", ".text", ".rst"]);
export const DOCUMENT_EXTENSIONS = new Set([...TEXT_EXTENSIONS, ".pdf"]);

export interface DocumentText {
  /** One entry per page for a PDF; one entry for a text file. */
  pages: string[];
  format: "text" | "markdown" | "pdf";
}

export function isDocumentName(name: string): boolean {
  return DOCUMENT_EXTENSIONS.has(path.extname(name).toLowerCase());
}

export async function extractText(name: string, bytes: Buffer): Promise<DocumentText> {
  const ext = path.extname(name).toLowerCase();
  if (ext === ".pdf" || bytes.subarray(0, 5).toString("latin1") === "%PDF-") return { pages: await pdfPages(name, bytes), format: "pdf" };
  if (!TEXT_EXTENSIONS.has(ext)) throw new StepError(`${name}: documents are read as text, Markdown or PDF (${[...DOCUMENT_EXTENSIONS].join(", ")})`);
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/^\uFEFF/, "");
  return { pages: [text], format: ext === ".md" || ext === ".markdown" ? "markdown" : "text" };
}

async function pdfPages(name: string, bytes: Buffer): Promise<string[]> {
  const { extractText: pdfText, getDocumentProxy } = await import("unpdf");
  try {
    const document = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await pdfText(document, { mergePages: false });
    return text;
  } catch (error) {
    throw new StepError(`${name}: the PDF could not be read (${(error as Error).message.split("\n")[0]}); check that it is a valid, unencrypted PDF`);
  }
}
