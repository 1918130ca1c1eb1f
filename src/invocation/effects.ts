// Which tool calls have effects (SPEC §9 `--approve`): `execute`, `set_binding`, a `recover`
// that retries the statement or binds a value to its target, and the capability tools that call
// out or write (`run_plan`, `resume_job`: their steps reach providers and write artifacts). The approval port
// (ports.ts) is asked before each of them runs; a refusal is the tool error DENIED_BY_USER, which
// the model may work around. The same calls but `recover` (whose retry and binding are the
// statement's own, Python's) are the ones the journal records before they run (SPEC §11.2).

import type { ParsedCall } from "./batch-validation.js";
import type { ToolResult } from "./prompt.js";

export function hasEffects(call: Pick<ParsedCall, "name" | "args">): boolean {
  switch (call.name) {
    case "execute":
    case "set_binding":
    case "run_plan":
    case "resume_job":
      return true;
    case "recover": {
      const outcome = call.args.outcome as { kind?: string } | undefined;
      return call.args.action === "retry" || (call.args.action === "complete" && outcome !== undefined && outcome.kind !== "none");
    }
    default:
      return false;
  }
}

/** A call whose start and end the journal records (SPEC §11.2): its effects may reach outside the process. */
export function journaledEffect(call: Pick<ParsedCall, "name" | "args">): boolean {
  return call.name !== "recover" && hasEffects(call);
}

export const DENIED_BY_USER: ToolResult & { status: "error" } = { status: "error", error: "ApprovalDenied", message: "denied by the user" };
