// The list of candidate spans one search step tries (candidates.ts): each span once, in the order
// added, and only spans that contain CPython's error position (but for forced expression spans).

import type { BlockKind } from "./plan.js";
import type { Scan } from "./scanner.js";

export interface Candidate {
  start: number;
  end: number;
  kind: BlockKind;
}

export class Collector {
  readonly list: Candidate[] = [];
  private readonly seen = new Set<string>();
  constructor(
    private readonly scan: Scan,
    private readonly p: number,
  ) {}

  add(start: number, end: number, kind: BlockKind): void {
    if (end <= start || start > this.p || end < this.p) return;
    const key = `${start}:${end}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ start, end, kind });
  }

  /** An expression candidate that need not contain the error position. */
  force(start: number, end: number): void {
    const key = `${start}:${end}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ start, end, kind: "expression" });
  }

  /**
   * An expression candidate over tokens a..b (through offset `end` when given). A leading `await`
   * stays Python: the candidate is its operand.
   */
  addTokens(a: number, b: number, end = -1): void {
    const tokens = this.scan.tokens;
    while (a < b && tokens[a].kind === "name" && tokens[a].value === "await") a++;
    if (a > b) return;
    if (tokens[a].kind === "name" && tokens[a].value === "lambda") {
      // The lambda's body first: a block there is asked on every call of the lambda.
      for (let i = a + 1; i <= b; i++) {
        const t = tokens[i];
        if (t.depth === tokens[a].depth && t.kind === "op" && t.value === ":") {
          if (i + 1 <= b) this.addTokens(i + 1, b);
          break;
        }
      }
    }
    this.add(tokens[a].start, end >= 0 ? end : tokens[b].end, "expression");
  }
}
