// The node:test reporter of `npm test`: one line per test file as soon as it ends, numbered
// against the files on the command line (`[12/103] ✔ test/cli-e2e.test.ts  14.2 s`), each failing
// test with its file, place and error, and a summary with the counts. Node's `spec` reporter
// says nothing for minutes while slow files run and repeats every failure at the end; this one
// shows where the suite is, on a terminal or in CI alike (no colour, no cursor movement). Run by
// package.json's test:ts with --test-reporter; node --test loads it as is.
//
// Why the line has no counts: with files running side by side, node --test reports a file's
// tests (test:pass, test:fail) only after the files before it on the command line, while the
// file's own test:complete comes when its process ends. The line is printed then; the failures
// follow when they are reported, each naming its file; the counts are the summary's.

import path from "node:path";
import { inspect } from "node:util";

const files = process.argv.filter((arg) => /\.test\.[cm]?[jt]s$/.test(arg)).length;

export default async function* progress(source) {
  const totals = { passed: 0, failed: 0, skipped: 0, files: 0, failedFiles: new Set() };
  const started = Date.now();
  for await (const { type, data } of source) {
    const file = data?.file;
    if (!file) {
      if (type === "test:diagnostic" && data?.nesting === 0) yield `# ${data.message}\n`;
      continue;
    }
    const fileLevel = data.name === file && data.nesting === 0;
    if (type === "test:complete" && fileLevel) {
      totals.files++;
      const broken = data.details?.passed === false;
      if (broken) totals.failedFiles.add(shown(file));
      const place = files > 0 ? `[${String(totals.files).padStart(String(files).length)}/${files}] ` : "";
      const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1);
      yield `${place}${broken ? "✖" : "✔"} ${shown(file)}  ${seconds} s\n`;
      // A file that failed with no failing test of its own (it threw while loading, exited non-zero).
      if (broken && data.details?.error?.failureType !== "subtestsFailed") yield indent(inspect(data.details?.error, { depth: 4 }));
    } else if ((type === "test:pass" || type === "test:fail") && !fileLevel && data.details?.type !== "suite") {
      if (data.skip || data.todo) totals.skipped++;
      else if (type === "test:pass") totals.passed++;
      else {
        totals.failed++;
        totals.failedFiles.add(shown(file));
        yield failure(data);
      }
    } else if (type === "test:stderr" || type === "test:stdout") {
      yield indent(`${shown(file)}: ${data.message}`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const failed = totals.failedFiles.size > 0 ? `; failed in ${[...totals.failedFiles].join(", ")}` : "";
  yield `\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped in ${totals.files} files, ${seconds} s${failed}\n`;
}

function shown(file) {
  return path.relative(process.cwd(), file);
}

function failure(data) {
  const where = data.line ? `${shown(data.file)}:${data.line}:${data.column}` : shown(data.file);
  const error = data.details?.error;
  return indent(`✖ ${data.name} (${where})\n${indent(inspect(error?.cause ?? error, { depth: 4 }))}`);
}

function indent(text) {
  return `${text
    .trimEnd()
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n")}\n`;
}
