// The node:test reporter of `npm test`: one line per test file as it finishes, numbered against
// the files on the command line (`[12/103] ✔ test/cli-e2e.test.ts  23 passed  14.2 s`), a failing
// test's name, place and error right under its file's line, and a summary at the end. Node's
// `spec` reporter says nothing for minutes while slow files run and repeats every failure at the
// end; this one shows where the suite is, on a terminal or in CI alike (no colour, no cursor
// movement). Run by package.json's test:ts with --test-reporter; node --test loads it as is.

import path from "node:path";
import { inspect } from "node:util";

const files = process.argv.filter((arg) => /\.test\.[cm]?[jt]s$/.test(arg)).length;

export default async function* progress(source) {
  const perFile = new Map();
  const totals = { passed: 0, failed: 0, skipped: 0, files: 0, failedFiles: [] };
  const started = Date.now();
  const counts = (file) => {
    let entry = perFile.get(file);
    if (!entry) perFile.set(file, (entry = { passed: 0, failed: 0, skipped: 0, failures: [], output: [] }));
    return entry;
  };
  for await (const { type, data } of source) {
    const file = data?.file;
    switch (type) {
      case "test:pass":
      case "test:fail": {
        if (!file || data.name === file || data.details?.type === "suite") break;
        const entry = counts(file);
        if (data.skip || data.todo) entry.skipped++;
        else if (type === "test:pass") entry.passed++;
        else {
          entry.failed++;
          entry.failures.push(failure(data));
        }
        break;
      }
      case "test:stderr":
      case "test:stdout":
        if (file) counts(file).output.push(data.message);
        break;
      case "test:complete":
        if (file && data.name === file && data.nesting === 0) {
          totals.files++;
          yield fileLine(file, counts(file), data, totals, files);
          perFile.delete(file);
        }
        break;
      case "test:diagnostic":
        if (!file && data.nesting === 0) yield `# ${data.message}\n`;
        break;
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const failed = totals.failedFiles.length > 0 ? `; failed in ${totals.failedFiles.join(", ")}` : "";
  yield `\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped in ${totals.files} files, ${seconds} s${failed}\n`;
}

function fileLine(file, entry, data, totals, files) {
  totals.passed += entry.passed;
  totals.failed += entry.failed;
  totals.skipped += entry.skipped;
  // A file can fail without a failing test of its own: it threw while loading, or exited non-zero.
  const broken = entry.failed > 0 || Boolean(data.details?.error);
  const name = path.relative(process.cwd(), file);
  if (broken) totals.failedFiles.push(name);
  const counted = [`${entry.passed} passed`, entry.failed ? `${entry.failed} failed` : "", entry.skipped ? `${entry.skipped} skipped` : ""].filter(Boolean).join(", ");
  const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1);
  const place = files > 0 ? `[${String(totals.files).padStart(String(files).length)}/${files}] ` : "";
  let text = `${place}${broken ? "✖" : "✔"} ${name}  ${counted}  ${seconds} s\n`;
  for (const detail of entry.failures) text += detail;
  if (broken && entry.failures.length === 0 && data.details?.error) text += indent(inspect(data.details.error, { depth: 4 }));
  if (broken && entry.output.length > 0) text += indent(`output of the file:\n${entry.output.join("")}`);
  return text;
}

function failure(data) {
  const where = data.line ? `${path.relative(process.cwd(), data.file)}:${data.line}:${data.column}` : "";
  const error = data.details?.error;
  const shown = error?.cause ?? error;
  return indent(`✖ ${data.name}${where ? ` (${where})` : ""}\n${indent(inspect(shown, { depth: 4 }))}`);
}

function indent(text) {
  return `${text
    .trimEnd()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n")}\n`;
}
