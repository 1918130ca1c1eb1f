// How `aiython eval` shows its report: a table per program with a line per block under it, then
// one summary line; `--json` prints the report itself, one JSON document, for CI.

import type { BlockReport, EvalReport, ProgramReport } from "./report.js";

export function reportJson(report: EvalReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

export function reportText(report: EvalReport): string {
  const n = report.repeat;
  const header = ["program", "runs", "passed", "pass^1", `pass^${n}`, "exit", "tokens", "cost", "time"];
  const rows = report.programs.map((p) => [
    p.program,
    String(p.runs),
    String(p.passed),
    p.pass_k[0]?.toFixed(2) ?? "-",
    p.pass_k[n - 1]?.toFixed(2) ?? "-",
    exits(p),
    String(p.tokens),
    usd(p.cost_usd),
    `${p.seconds.toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  const lines = [`aiython eval ${report.target}: ${n} run${n === 1 ? "" : "s"} of each program${report.replayed ? ", replayed from the journal" : ""}`, "", line(header)];
  report.programs.forEach((program, i) => {
    lines.push(line(rows[i]));
    for (const block of program.blocks) lines.push(`    ${blockLine(block, program.runs)}`);
    for (const failure of program.failures) lines.push(`    not passed: ${failure}`);
  });
  return `${lines.join("\n")}\n\n${summaryLine(report)}\n`;
}

function blockLine(block: BlockReport, runs: number): string {
  const answers = block.answers
    .slice(0, 3)
    .map((a) => `${a.answer} ×${a.count}`)
    .join("; ");
  const more = block.answers.length > 3 ? `; and ${block.answers.length - 3} more` : "";
  const distinct = `${block.answers.length} distinct answer${block.answers.length === 1 ? "" : "s"}`;
  const failed = block.failed > 0 ? `, ${block.failed} failed` : "";
  return `${block.block} ${block.mode}: ${block.verdict}, reached in ${block.reached}/${runs} runs${failed}, ${distinct}: ${answers}${more}`;
}

function exits(program: ProgramReport): string {
  return Object.entries(program.exit_statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(" ");
}

const usd = (cost: number | null): string => (cost === null ? "unknown" : `$${cost.toFixed(4)}`);

export function summaryLine(report: EvalReport): string {
  const s = report.summary;
  const n = report.repeat;
  const blocks = s.stable_blocks + s.flaky_blocks;
  return (
    `eval: ${s.programs} program${s.programs === 1 ? "" : "s"}, ${s.runs} runs, ${s.passed} passed; ` +
    `pass^${n} = 1 for ${s.all_passed_programs} of ${s.programs}; ` +
    `${s.flaky_blocks} flaky and ${s.stable_blocks} stable of ${blocks} block${blocks === 1 ? "" : "s"}; ` +
    `${s.tokens} tokens; cost ${usd(s.cost_usd)}; ${s.wall_seconds.toFixed(1)} s`
  );
}
