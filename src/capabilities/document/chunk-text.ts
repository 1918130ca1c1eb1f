// Local chunking of document text (SPEC §10): paragraphs (blank-line separated; a Markdown heading
// also starts one) packed into chunks of at most `size` characters, a paragraph longer than that
// cut at sentence ends, then at spaces. Each chunk keeps its page (PDF) and the heading it falls
// under, so a search hit can say where it comes from.

export interface Chunk {
  index: number;
  text: string;
  /** 1-based page of a PDF, else null. */
  page: number | null;
  /** The nearest Markdown heading above, or null. */
  heading: string | null;
}

/** Chunks of `pages`; `paged` (a PDF, even of one page) gives each chunk its 1-based page. */
export function chunkPages(pages: readonly string[], size: number, paged = false): Chunk[] {
  const chunks: Chunk[] = [];
  pages.forEach((page, i) => {
    for (const piece of chunkText(page, size)) {
      chunks.push({ index: chunks.length, text: piece.text, page: paged ? i + 1 : null, heading: piece.heading });
    }
  });
  return chunks;
}

function chunkText(text: string, size: number): { text: string; heading: string | null }[] {
  const out: { text: string; heading: string | null }[] = [];
  let current = "";
  let heading: string | null = null;
  let currentHeading: string | null = null;
  const flush = () => {
    if (current.trim() !== "") out.push({ text: current.trim(), heading: currentHeading });
    current = "";
  };
  for (const paragraph of paragraphs(text)) {
    const title = /^#{1,6}\s+(.*)$/.exec(paragraph.split("\n")[0]);
    if (title) {
      flush();
      heading = title[1].trim();
    }
    if (current === "") currentHeading = heading;
    for (const part of paragraph.length > size ? split(paragraph, size) : [paragraph]) {
      if (current !== "" && current.length + part.length + 2 > size) {
        flush();
        currentHeading = heading;
      }
      current = current === "" ? part : `${current}\n\n${part}`;
    }
  }
  flush();
  return out;
}

/** Blank-line separated paragraphs; a heading line starts a new one. */
function paragraphs(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let block: string[] = [];
  const end = () => {
    if (block.join("").trim() !== "") out.push(block.join("\n").trim());
    block = [];
  };
  for (const line of lines) {
    if (line.trim() === "") end();
    else {
      if (/^#{1,6}\s/.test(line)) end();
      block.push(line);
    }
  }
  end();
  return out;
}

/** A long paragraph cut into pieces of at most `size`: at sentence ends, else spaces, else anywhere. */
function split(paragraph: string, size: number): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > size) {
    const window = rest.slice(0, size);
    const sentence = Math.max(window.lastIndexOf(". "), window.lastIndexOf("? "), window.lastIndexOf("! "));
    const space = window.lastIndexOf(" ");
    const cut = sentence > size / 2 ? sentence + 1 : space > size / 2 ? space : size;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== "") pieces.push(rest);
  return pieces;
}
