// Prepared statements of one better-sqlite3 connection, made once per SQL text, and the tolerant
// reading of the JSON a row holds: a damaged value (a disk error, a hand edit) reads as the given
// fallback instead of throwing, so that `runs` and replay report it (SPEC §11: "a damaged row is a
// miss with a message, never an internal error").

import type BetterSqlite3 from "better-sqlite3";

export type Row = Record<string, unknown>;

export class Statements {
  private readonly prepared = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly db: BetterSqlite3.Database) {}

  sql(text: string): BetterSqlite3.Statement {
    let statement = this.prepared.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.prepared.set(text, statement);
    }
    return statement;
  }
}

/** JSON.parse of a column, or `fallback` when it is missing or not JSON of the expected kind. */
export function jsonColumn<T>(value: unknown, fallback: T, accept: (parsed: unknown) => boolean = () => true): T {
  if (typeof value !== "string") return fallback;
  try {
    const parsed = JSON.parse(value) as unknown;
    return accept(parsed) ? (parsed as T) : fallback;
  } catch {
    return fallback;
  }
}

export const isRecord = (value: unknown): boolean => typeof value === "object" && value !== null && !Array.isArray(value);

export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
