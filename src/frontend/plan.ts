// The plan: what the frontend hands the host, and the host hands the bridge (SPEC §3, §4.1). It
// holds no checkpoints: the bridge selects them on the program as it runs (SPEC §4.2).
// Lines are 1-based; columns 0-based and counted in characters (code points).

export interface Span {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

export type BlockKind = "expression" | "statement";

export interface BlockDirective {
  profile: string | null;
  prompts: string[];
  capability: string | null;
  provider: string | null;
}

export interface BlockInfo {
  /** `<displayName>:<index>` */
  id: string;
  /** 1-based, source order; the argument of the runtime call in the rewritten source. */
  index: number;
  /** The block's source text, verbatim. */
  statement: string;
  kind: BlockKind;
  span: Span;
  /** Source text of the single assignment target the value goes to, or null. */
  target: string | null;
  /** Normalised annotation text of the expected type (§3.2), or null. */
  output_type: string | null;
  requires_result: boolean;
  directive: BlockDirective;
  /** Inside an `async def` body: rendered `(await NAME.ablock(N))()`. */
  is_async: boolean;
  /** Qualified name (as `co_qualname`) of the enclosing function, or null at module or class level. */
  function: string | null;
}

export interface Diagnostic {
  line: number;
  column: number;
  message: string;
}

export interface Plan {
  filename: string;
  displayName: string;
  /** The program to run instead of the source; null when there are no blocks. */
  rewritten: string | null;
  runtimeName: string;
  blocks: BlockInfo[];
  /** Faults that stop the run before it starts (malformed directives, null bytes): `file:line: message`, exit 78. */
  diagnostics: Diagnostic[];
  /** `index` of each block that reads as mistyped Python, not natural language (prose.ts): CPython's SyntaxError stands there. */
  typos: number[];
}
