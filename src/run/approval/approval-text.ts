// What `--approve` shows before a call with effects (SPEC §9): the tool, the frame and line it
// acts on, and what it would do, on a few lines for a terminal. Program data in the call is the
// model's own text (code, names, outcome values), never a key: the configuration is not here.

import type { ApprovalCall } from "../../invocation/ports.js";

const MAX_LINES = 12;
const MAX_LINE_CHARS = 160;

export function approvalText(call: ApprovalCall): string {
  const { request } = call;
  const where = `${request.location.file}:${request.location.line}${request.location.function ? ` in ${request.location.function}()` : ""}`;
  const kind = request.mode === "syntax" ? "AI block" : "recovery of a failed statement";
  return [`aiython --approve: the model wants to ${action(call)} (${kind} at ${where})`, ...indent(detail(call))].join("\n");
}

function action(call: ApprovalCall): string {
  switch (call.name) {
    case "execute":
      return "execute code in the frame";
    case "set_binding":
      return `rebind ${String(call.args.name)}`;
    case "recover":
      return call.args.action === "retry" ? "run the failed statement again" : `complete the statement with a value for ${call.request.recovery?.target ?? "its target"}`;
    default:
      return `call ${call.name}`;
  }
}

function detail(call: ApprovalCall): string[] {
  switch (call.name) {
    case "execute":
      return String(call.args.code).split("\n");
    case "set_binding":
      return [`${String(call.args.name)} = <${String(call.args.handle)}>`];
    case "recover": {
      const outcome = call.args.outcome as { kind: string; value?: unknown; code?: string; id?: string } | undefined;
      const statement = call.request.statement.split("\n");
      if (!outcome || call.args.action === "retry") return statement;
      const value = outcome.kind === "literal" ? JSON.stringify(outcome.value) : outcome.kind === "expression" ? outcome.code : `<${outcome.id}>`;
      return [...statement, `→ ${call.request.recovery?.target ?? "target"} = ${value}`];
    }
    default:
      return [JSON.stringify(call.args)];
  }
}

function indent(lines: string[]): string[] {
  const shown = lines.slice(0, MAX_LINES).map((line) => `  │ ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`);
  if (lines.length > MAX_LINES) shown.push(`  │ … ${lines.length - MAX_LINES} more line(s)`);
  return shown;
}
