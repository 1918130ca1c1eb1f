// What inspect and dis say of project code, on 3.11–3.13 (fixture inspected.py over shapes.py).
// Without a model: byte for byte python3's. With one: sources, line numbers (co_firstlineno,
// co_lines, getsourcelines), signatures, closures, names (co_names: the handlers call subscripted
// constants) and the loader's type read as under python3; only the lines README's "Instrumented
// bytecode" names differ (starts: the handlers' line starts, sizeof, positions). `python -m inspect -d MODULE` prints python3's
// details, loader included, in both modes.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { normalise } from "./fidelity/normalise.js";
import { besidePython, INTERPRETERS, MODES } from "./support/interpreters.js";
import { ROOT } from "./support/run-cli.js";

const FIXTURES = path.join(ROOT, "test", "fixtures", "invisible");
const INSTRUMENTED = /^(starts|sizeof|positions) /;

const lines = (out: unknown) => String(out).split("\n");

for (const [version, python] of INTERPRETERS) {
  for (const [mode, model] of MODES) {
    test(`${version} ${mode}: inspect and dis read project code as its source says`, { skip: !python && `needs ${version}` }, async () => {
      const { ours, theirs } = await besidePython(python!, ["inspected.py"], model, FIXTURES);
      assert.equal(theirs.exitCode, 0, String(theirs.stderr));
      assert.match(String(theirs.stdout), /\nSourceFileLoader _frozen_importlib_external \['area', 'counter'\]\n$/);
      assert.equal(ours.stderr, theirs.stderr);
      assert.equal(ours.exitCode, theirs.exitCode);
      if (mode === "unconfigured") {
        assert.equal(ours.stdout, theirs.stdout);
        return;
      }
      const label = (line: string) => (INSTRUMENTED.test(line) ? line.split(" ")[0] : line);
      assert.deepEqual(lines(ours.stdout).map(label), lines(theirs.stdout).map(label));
    });

    test(`${version} ${mode}: python -m inspect -d prints a project module's details as python3`, { skip: !python && `needs ${version}` }, async () => {
      const { ours, theirs } = await besidePython(python!, ["-m", "inspect", "-d", "shapes"], model, FIXTURES);
      assert.match(String(theirs.stdout), /\nLoader: <_frozen_importlib_external\.SourceFileLoader object at 0x[0-9a-f]+>\n/);
      assert.equal(normalise(String(ours.stdout)), normalise(String(theirs.stdout)));
      assert.equal(ours.stderr, theirs.stderr);
      assert.equal(ours.exitCode, theirs.exitCode);
    });
  }
}
