// The code reader's bounds and refusals (SPEC §9) on a real folder: the tool schemas only say
// "string" and "integer", so the reader itself clamps line numbers, caps what one answer holds
// (lines, bytes, matches, entries) with a `truncated` flag, and refuses what it does not show.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CODE_READING_LIMITS as LIMITS } from "../src/host-tool-defaults.js";
import { CodeReader } from "../src/invocation/code-reading/code-reader.js";
import { tempProject } from "./support/temp-project.js";

function project(files: Record<string, string | Buffer>): CodeReader {
  const root = tempProject({}, { git: false, prefix: "code-reader-" });
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return new CodeReader(root, [path.join(root, "private/settings.txt")]);
}

const value = (result: Awaited<ReturnType<CodeReader["run"]>>) => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as Record<string, any>;
};
const failure = (result: Awaited<ReturnType<CodeReader["run"]>>) => {
  assert.ok(!result.ok, JSON.stringify(result));
  return result.error;
};

test("read_code clamps line numbers and stops at the byte bound with truncated set", async () => {
  const wide = `${"x".repeat(999)}\n`;
  const reader = project({ "a.py": "one\ntwo\nthree\n", "wide.py": wide.repeat(100) });
  assert.deepEqual(value(await reader.run("read_code", { path: "a.py", start_line: -3, end_line: 2 })), {
    path: "a.py",
    start_line: 1,
    end_line: 2,
    total_lines: 3,
    text: "one\ntwo\n",
    truncated: false,
  });
  assert.equal(value(await reader.run("read_code", { path: "a.py", start_line: 99 })).start_line, 3);
  const backwards = value(await reader.run("read_code", { path: "a.py", start_line: 3, end_line: 1 }));
  assert.equal(backwards.text, "");
  const capped = value(await reader.run("read_code", { path: "wide.py" }));
  assert.equal(capped.end_line, Math.floor(LIMITS.readBytes / wide.length));
  assert.ok(Buffer.byteLength(capped.text) <= LIMITS.readBytes);
  assert.equal(capped.truncated, true);
});

test("search_code finds any case, caps matches, and refuses empty or overlong text", async () => {
  const reader = project({ "m.py": "Limit = 1\n".repeat(LIMITS.searchMatches + 5), "n.md": "no\n" });
  const found = value(await reader.run("search_code", { text: "LIMIT" }));
  assert.equal(found.matches.length, LIMITS.searchMatches);
  assert.equal(found.truncated, true);
  assert.deepEqual(found.matches[0], { path: "m.py", line: 1, text: "Limit = 1" });
  assert.equal(value(await reader.run("search_code", { text: "no", path: "." })).matches.length, 1);
  assert.match(failure(await reader.run("search_code", { text: "  " })).message, /needs some text/);
  assert.match(failure(await reader.run("search_code", { text: "x".repeat(201) })).message, /at most 200 characters/);
  assert.equal(failure(await reader.run("search_code", { text: "a", path: "m.py" })).type, "PathRefused");
});

test("refused: absolute paths, NUL, binary and configured secret files; nothing outside the root", async () => {
  const reader = project({ "bin.py": Buffer.from([0x41, 0, 0x42]), "private/settings.txt": "KEY=1\n", "ok.py": "x = 1\n" });
  assert.match(failure(await reader.run("read_code", { path: "/etc/passwd" })).message, /absolute/);
  assert.match(failure(await reader.run("read_code", { path: "ok.py\0" })).message, /NUL/);
  assert.equal(failure(await reader.run("read_code", { path: "bin.py" })).type, "NotText");
  assert.match(failure(await reader.run("read_code", { path: "private/settings.txt" })).message, /credential/);
  assert.match(failure(await reader.run("read_code", { path: "" })).message, /not a file/);
  const listed = value(await reader.run("list_code_files", {})).files.map((f: { path: string }) => f.path);
  assert.ok(!listed.includes("private/settings.txt"), listed.join(" "));
});
