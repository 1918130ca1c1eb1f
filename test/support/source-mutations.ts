// Mutations of real Python source for the frontend's property tests (test/fuzz-frontend.test.ts):
// the ways people break code — a natural-language line at some indentation, characters deleted
// or inserted (brackets, quotes, colons, backslashes), a line duplicated, dedented or cut short —
// and the corpus they are applied to: the running Python's own standard library.

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import fc from "fast-check";

/** Standard-library files of `python` between 2 KB and 200 KB, as lines (ends kept), by name. */
export function standardLibrary(python: string): string[][] {
  const stdlib = execFileSync(python, ["-c", "import os; print(os.path.dirname(os.__file__))"], { encoding: "utf8" }).trim();
  return fs
    .readdirSync(stdlib)
    .filter((name) => name.endsWith(".py"))
    .sort()
    .map((name) => fs.readFileSync(path.join(stdlib, name), "utf8"))
    .filter((text) => text.length > 2000 && text.length < 200_000)
    .map((text) => text.split(/(?<=\n)/));
}

export const PHRASES = ["sort the items by date", "x = the total of all prices", "if the list is empty:", "return the best match", "print a friendly summary of results"];
export type Mutation =
  | { kind: "phrase"; at: number; phrase: string; indent: number }
  | { kind: "delete"; at: number; length: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "duplicate" | "dedent" | "truncate"; at: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("phrase" as const), at: fc.nat(), phrase: fc.constantFrom(...PHRASES), indent: fc.constantFrom(0, 4, 8) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.string({
      unit: fc.constantFrom("(", ")", "[", "]", "{", "}", ":", "'", '"', "\\", "#", "\n", "\t", " ", ",", "=", "if ", "def ", "x", "await ", "lambda"),
      maxLength: 6,
    }),
  }),
  fc.record({ kind: fc.constantFrom("duplicate" as const, "dedent" as const, "truncate" as const), at: fc.nat() }),
);

export function mutate(lines: string[], m: Mutation): string[] {
  const out = [...lines];
  const line = out.length === 0 ? 0 : m.at % out.length;
  switch (m.kind) {
    case "phrase":
      out.splice(line, 0, `${" ".repeat(m.indent)}${m.phrase}\n`);
      return out;
    case "duplicate":
      out.splice(line, 0, out[line] ?? "\n");
      return out;
    case "dedent":
      out[line] = (out[line] ?? "").trimStart();
      return out;
    case "truncate":
      return out.slice(0, line + 1);
    case "delete":
    case "insert": {
      const text = out.join("");
      const at = text.length === 0 ? 0 : m.at % text.length;
      const changed = m.kind === "delete" ? text.slice(0, at) + text.slice(at + m.length) : text.slice(0, at) + m.text + text.slice(at);
      return changed.split(/(?<=\n)/);
    }
  }
}

/** The source of one case: a window of `lines` lines of a corpus file, then the mutations. */
export function mutatedWindow(corpus: string[][], file: number, start: number, mutations: Mutation[], lines: number): string {
  const text = corpus[file % corpus.length];
  const from = start % Math.max(1, text.length - lines);
  return mutations.reduce(mutate, text.slice(from, from + lines)).join("");
}
