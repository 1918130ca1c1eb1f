// The frontend's public surface: source text in, plan out (the rewritten program, its blocks).
// Nothing here imports from outside src/frontend (dependencies point one way).

export { analyzeSource, type AnalyzeArgs } from "./analyze.js";
export type { CompileItem, CompileOracle, CompileVerdict } from "./oracle.js";
export type { BlockDirective, BlockInfo, BlockKind, Diagnostic, Plan, Span } from "./plan.js";
export { readsAsProse } from "./prose.js";
