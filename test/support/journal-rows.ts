// The rows a query returns from a project's journal (.aiython/aiython.sqlite), opened read-only
// and closed again, so a test can look at what a run recorded while the project lives on.

import path from "node:path";
import Database from "better-sqlite3";

export function journalRows<T>(root: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(root, ".aiython", "aiython.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
