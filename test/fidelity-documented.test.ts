// The fidelity harness accepts a difference as documented only when it is exactly the one README's
// "Known differences" explains: the listed tests fail, no other does, under the listed versions;
// or, for a program's output, every first differing line shows what README names, with python3's
// exit status and files.

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Difference } from "./fidelity/compare.js";
import { documentedDifference } from "./fidelity/documented.js";
import type { Run } from "./fidelity/run-mode.js";

const verdict = (name: string, result: string) => `${name} (__main__.JumpTestCase.${name}) ... ${result}`;
const run = (exit: string, lines: string[]): Run => ({ stdout: "", stderr: `${lines.join("\n")}\n`, exit, timedOut: false, left: [] });
const passing = run("0", [verdict("test_jump_in_nested_finally_2", "ok"), verdict("test_jump_in_nested_finally_3", "ok"), verdict("test_other", "ok")]);
const documentedFailures = [verdict("test_jump_in_nested_finally_2", "FAIL"), verdict("test_jump_in_nested_finally_3", "FAIL"), verdict("test_other", "ok")];

test("exactly the listed failures under a listed version are documented", () => {
  const found = documentedDifference("test_sys_settrace", "configured", "3.12.1", run("1", documentedFailures), passing, []);
  assert.match(found?.readme ?? "", /debugger's jump/);
});

test("one more failing test, another version, another mode or a timeout is not documented", () => {
  const extra = run("1", [...documentedFailures.slice(0, 2), verdict("test_other", "ERROR")]);
  assert.equal(documentedDifference("test_sys_settrace", "configured", "3.12.1", extra, passing, []), undefined);
  assert.equal(documentedDifference("test_sys_settrace", "configured", "3.11.7", run("1", documentedFailures), passing, []), undefined);
  assert.equal(documentedDifference("test_sys_settrace", "unconfigured", "3.12.1", run("1", documentedFailures), passing, []), undefined);
  assert.equal(documentedDifference("test_sys_settrace", "configured", "3.12.1", { ...run("1", documentedFailures), timedOut: true }, passing, []), undefined);
});

test("one of the listed failures missing is not documented either", () => {
  const fewer = run("1", [verdict("test_jump_in_nested_finally_2", "FAIL"), verdict("test_jump_in_nested_finally_3", "ok")]);
  assert.equal(documentedDifference("test_sys_settrace", "configured", "3.13.0", fewer, passing, []), undefined);
});

const marshalled: Difference = { kind: "line", stream: "stdout", line: 1, ours: "marshal: unmarshallable object", theirs: "8" };
const marshal = run("0", []);

test("an output difference is documented only where each first differing line shows what README names", () => {
  assert.match(documentedDifference("process-marshal", "configured", "3.13.0", marshal, marshal, [marshalled])?.readme ?? "", /marshal of instrumented code/);
  const other: Difference = { kind: "line", stream: "stderr", line: 1, ours: "something else", theirs: "expected" };
  assert.equal(documentedDifference("process-marshal", "configured", "3.13.0", marshal, marshal, [marshalled, other]), undefined);
  assert.equal(documentedDifference("process-marshal", "configured", "3.13.0", marshal, marshal, [marshalled, { kind: "exit", ours: "0", theirs: "1" }]), undefined);
  assert.equal(documentedDifference("process-marshal", "unconfigured", "3.11.7", marshal, marshal, [marshalled]), undefined);
});
