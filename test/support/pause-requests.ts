// Pause requests for orchestrator tests, shaped like what the bridge sends (SPEC §5.1): a one-line
// expression block with small related values, a statement block, and a failed checkpoint.

import type { InvocationSettings } from "../../src/invocation/ports.js";
import type { PauseRequest } from "../../src/bridge/protocol.js";

const ROUTE_SOURCE = [
  "def route(ticket: str) -> str:",
  '    """Put a ticket in its queue."""',
  '    kind: Literal["bug", "billing"] = classify this ticket',
  "    queues[kind].append(ticket)",
  "    return kind",
].join("\n");

/** `kind: Literal["bug", "billing"] = classify this ticket` inside `route(ticket)`. */
export function expressionBlock(overrides: Partial<PauseRequest> = {}): PauseRequest {
  return {
    mode: "syntax",
    block_id: "tickets.py:1",
    statement: "classify this ticket",
    location: { file: "tickets.py", line: 9, column: 38, end_line: 9, end_column: 58, function: "route" },
    target: "kind",
    output_type: "Literal['bug', 'billing']",
    output_schema: { enum: ["bug", "billing"] },
    requires_result: true,
    code_context: { file: "tickets.py", start_line: 7, end_line: 11, source: ROUTE_SOURCE },
    related_objects: [{ name: "ticket", handle: "object-1", type: "str", module: "builtins", qualname: "str", value: "I was charged twice this month." }],
    frame_objects: [],
    hints: { prompts: [] },
    ...overrides,
  };
}

/** `print a greeting for name` standing alone as a statement: no target, no result. */
export function statementBlock(overrides: Partial<PauseRequest> = {}): PauseRequest {
  return expressionBlock({
    block_id: "greet.py:1",
    statement: "print a greeting for name",
    location: { file: "greet.py", line: 3, column: 4, end_line: 3, end_column: 29, function: "greet" },
    target: null,
    output_type: null,
    output_schema: null,
    requires_result: false,
    code_context: { file: "greet.py", start_line: 1, end_line: 3, source: "def greet(name):\n    name = name.strip()\n    print a greeting for name" },
    related_objects: [{ name: "name", handle: "object-1", type: "str", module: "builtins", qualname: "str", value: "Ada" }],
    ...overrides,
  });
}

/** `total = int(raw)` raised ValueError at a checkpoint; `retryAllowed` and `target` vary per test. */
export function checkpoint(options: { retryAllowed?: boolean; target?: string | null } = {}): PauseRequest {
  const target = options.target === undefined ? "total" : options.target;
  return {
    mode: "recovery",
    block_id: "sum.py:c2",
    statement: "total = int(raw)",
    location: { file: "sum.py", line: 2, column: 0, end_line: 2, end_column: 16, function: null },
    target,
    output_type: "int",
    output_schema: { type: "integer" },
    requires_result: false,
    code_context: { file: "sum.py", start_line: 1, end_line: 3, source: 'raw = "12 apples"\ntotal = int(raw)\nprint(total)' },
    related_objects: [{ name: "raw", handle: "object-1", type: "str", module: "builtins", qualname: "str", value: "12 apples" }],
    frame_objects: [],
    hints: { prompts: [] },
    recovery: {
      exception_type: "ValueError",
      message: "invalid literal for int() with base 10: '12 apples'",
      origin: { file: "sum.py", line: 2 },
      attempt: 1,
      retry_allowed: options.retryAllowed ?? true,
      target,
      line: 2,
    },
  };
}

export const ALL_PERMISSIONS: ReadonlySet<string> = new Set(["read_asset", "read_code", "network", "generate_file", "write_filesystem", "execute_code"]);

export function settings(overrides: Partial<InvocationSettings> = {}): InvocationSettings {
  return { maxRounds: 16, timeoutSeconds: 120, permissions: ALL_PERMISSIONS, ...overrides };
}
