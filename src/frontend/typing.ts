// The types of a rendering's blocks (SPEC §3.2, block-info.ts): each group of windows holding
// calls is parsed as rewritten and its calls typed, the tree dropped before the next group is
// parsed, against the program's index (program-index.ts), whose parts are parsed as rewritten
// too (a group without calls is the source's own text) but only when a block's typing names
// something in them.

import { describeBlocks, type BlockTyping, type CallSite } from "./block-info.js";
import { indexTree, ProgramParts, type IndexPart, type PartSource } from "./program-index.js";
import { offsetMap, type OffsetMap } from "./render.js";
import type { Group, Rendering } from "./render-program.js";
import { parsePython, treeReleaser, type SyntaxTree } from "./syntax-tree.js";
import { PARSE_CHUNK } from "./windows.js";

/** One typing per block of `r`, in order; `pause` runs between groups (analyze.ts yields there). */
export async function typeBlocks(source: string, r: Rendering, pause: () => Promise<void>): Promise<BlockTyping[]> {
  const toOriginal = offsetMap(r.replacements);
  const known = new Map<Group, IndexPart>();
  const parts: PartSource[] = r.groups.map((g) => ({
    start: g.start,
    end: g.end,
    index: () => {
      let part = known.get(g);
      if (!part) known.set(g, (part = parseGroup(r.text, g, toOriginal).part));
      return part;
    },
  }));
  const program = new ProgramParts(source, parts);
  const typing: BlockTyping[] = [];
  const release = treeReleaser(source.length);
  let parsed = 0;
  for (const g of r.groups) {
    if (g.blocks.length === 0) continue;
    const { tree, text, map, part } = parseGroup(r.text, g, toOriginal);
    known.set(g, part);
    const sites = g.blocks.map((i): CallSite => {
      const call = r.calls[i];
      return { kind: call.kind, start: call.start - g.newStart, end: call.end - g.newStart, tree, text, map };
    });
    typing.push(...describeBlocks(sites, program));
    parsed += text.length;
    if (parsed >= PARSE_CHUNK) {
      parsed = 0;
      release(); // the trees of the groups typed so far
      await pause();
    }
  }
  return typing;
}

interface ParsedGroup {
  tree: SyntaxTree;
  text: string;
  map: OffsetMap;
  part: IndexPart;
}

function parseGroup(text: string, g: Group, map: OffsetMap): ParsedGroup {
  const slice = text.slice(g.newStart, g.newEnd);
  const tree = parsePython(slice);
  const partMap: OffsetMap = (o, bias) => map(g.newStart + o, bias);
  return { tree, text: slice, map: partMap, part: indexTree(tree, slice, partMap) };
}
