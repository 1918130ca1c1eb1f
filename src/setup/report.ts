// The report of `aiython setup --check` (SPEC §7): what the server did with one forced tool call,
// and what aiython does about it (server-quirks.ts), one line per feature.

import type { ServerReport } from "../model/server-check.js";

export function renderReport(report: ServerReport): string {
  const line = (label: string, text: string) => `  ${`${label}:`.padEnd(26)} ${text}`;
  return [
    line("tool calls", `yes (answered in ${report.seconds.toFixed(2)} s)`),
    line('tool_choice "required"', report.toolChoice === "required" ? "honoured" : 'rejected; aiython asks this server with "auto"'),
    line("parallel tool calls", report.calls > 1 ? `yes (${report.calls} in one reply)` : "no (one call per reply; blocks take an extra round)"),
    line("calls as JSON in content", report.callsInContent ? "yes (the model writes calls as text; aiython reads them)" : "no"),
  ].join("\n");
}
