// `aiython --explain --json` (SPEC §3.4): exactly the documented shape, keys in its order: the
// frontend's plan and the checkpoints the bridge selects (run/explain.ts). Runs nothing and holds
// no secret (the config summary comes from the host, already without secrets).

import type { CheckpointInfo } from "../bridge/protocol.js";
import type { Plan } from "../frontend/index.js";

export interface ExplainContext {
  /** The path as the user gave it. */
  file: string;
  /** Version of the interpreter that compiled the source, e.g. "3.11.7". */
  python: string;
  /** The resolved configuration summary (SPEC §3.4 `config`). */
  config: unknown;
}

export function renderExplainJson(plan: Plan, checkpoints: readonly CheckpointInfo[], context: ExplainContext): string {
  const document = {
    file: context.file,
    python: context.python,
    config: context.config,
    blocks: plan.blocks.map((b) => ({
      id: b.id,
      statement: b.statement,
      kind: b.kind,
      span: { line: b.span.line, column: b.span.column, end_line: b.span.end_line, end_column: b.span.end_column },
      target: b.target,
      output_type: b.output_type,
      requires_result: b.requires_result,
      directive: { profile: b.directive.profile, prompts: [...b.directive.prompts], capability: b.directive.capability, provider: b.directive.provider },
    })),
    checkpoints: checkpoints.map((c) => ({
      id: c.id,
      span: { line: c.span.line, column: c.span.column, end_line: c.span.end_line, end_column: c.span.end_column },
      statement: c.statement,
      target: c.target,
      retry_allowed: c.retry_allowed,
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
