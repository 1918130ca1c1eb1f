// The compile oracle's interface (SPEC §3.1): CPython's `compile()` in the interpreter that will
// run the program is the only authority on what parses. The Python half is
// bridge-py/aiython_bridge/preparation/oracle.py (`check`); the host reaches it over the bridge's
// control channel, tests through test/support/python-oracle.ts. Verdicts are parser-only: errors
// CPython raises later (symbol table, code generator) answer `ok: true`.

export interface CompileItem {
  source: string;
  filename: string;
}

/** Lines 1-based; columns 0-based code points; end positions null when CPython gives none. */
export type CompileVerdict =
  | { ok: true }
  | {
      ok: false;
      error: { message: string; line: number; column: number; end_line: number | null; end_column: number | null };
    };

export interface CompileOracle {
  /** One verdict per item, in order. Batch items: one round trip is cheap, a compile is not. */
  check(items: CompileItem[]): Promise<CompileVerdict[]>;
}

export type CompileError = Extract<CompileVerdict, { ok: false }>["error"];
