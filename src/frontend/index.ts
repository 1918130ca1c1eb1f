// The frontend's public surface: source text in, plan out, and the `--explain` renderings.
// Nothing here imports from src/invocation, src/model or src/capabilities (dependencies point one way).

export { analyzeSource, type AnalyzeArgs } from "./analyze.js";
export type { CompileItem, CompileOracle, CompileVerdict } from "./oracle.js";
export type { BlockDirective, BlockInfo, BlockKind, CheckpointInfo, Diagnostic, Plan, Span } from "./plan.js";
export { renderExplainJson, type ExplainContext } from "./explain-json.js";
export { readsAsProse } from "./prose.js";
export { renderExplainText, type ExplainTextOptions } from "./explain-text.js";
