// SPEC §4.1, §4.2: a source that compiles is checkpointed by the bridge itself
// (bridge-py/aiython_bridge/recovery/selection.py, from CPython's own AST), with no round trip to
// the host and no tree-sitter; a source with AI blocks is checkpointed by the frontend
// (src/frontend/checkpoints.ts, from tree-sitter). Two implementations of one rule, so this test
// proves them equal on every file of the running Python's standard library that compiles and that
// tree-sitter parses without error (a handful it cannot; for those a run uses the bridge's
// selection anyway): the same checkpoints, ids, spans, statement texts, targets, annotations
// (equal as Python expressions: ast.unparse prints `Tuple[*Ts]` as `Tuple[*Ts,]` on 3.11) and
// retry rules.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { CAPABILITY_NAMES } from "../src/capabilities/names.js";
import { analyzeSource, type CheckpointInfo } from "../src/frontend/index.js";
import { parsePython } from "../src/frontend/syntax-tree.js";
import { PYTHON, ROOT } from "./support/run-cli.js";
import { startPythonOracle } from "./support/python-oracle.js";

interface StdlibFile {
  path: string;
  text: string;
  checkpoints: CheckpointInfo[];
}

const BRIDGE_SELECTION = `
import ast, importlib.util, json, os, sys, sysconfig, warnings
sys.path.insert(0, sys.argv[1])
from aiython_bridge.recovery.selection import select_checkpoints
root = sysconfig.get_paths()["stdlib"]
out = []
for folder, dirs, files in os.walk(root):
    dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "dist-packages", "__pycache__"))
    for name in sorted(f for f in files if f.endswith(".py")):
        path = os.path.join(folder, name)
        try:
            text = importlib.util.decode_source(open(path, "rb").read())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(text, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, UnicodeDecodeError, LookupError):
            continue  # not a program CPython runs: no checkpoints either way
        tree = ast.parse(text, path)
        out.append({"path": path, "text": text, "checkpoints": select_checkpoints(tree, text, entry=True, name=name)})
json.dump(out, sys.stdout)
`;

const SAME_EXPRESSION = `
import ast, json, sys
pairs = json.load(sys.stdin)
print(json.dumps([ast.dump(ast.parse(a, mode="eval")) == ast.dump(ast.parse(b, mode="eval")) for a, b in pairs]))
`;

function comparable(c: CheckpointInfo) {
  return { id: c.id, span: c.span, statement: c.statement, target: c.target, retry_allowed: c.retry_allowed, compound: c.compound };
}

test("the bridge's checkpoint selection equals the frontend's on the whole standard library", { timeout: 600_000 }, async () => {
  const files = JSON.parse(execFileSync(PYTHON, ["-c", BRIDGE_SELECTION, path.join(ROOT, "bridge-py")], { encoding: "utf8", maxBuffer: 1 << 30 })) as StdlibFile[];
  assert.ok(files.length > 1000, `${files.length} files`);
  const oracle = startPythonOracle();
  const differences: string[] = [];
  const annotationPairs: { where: string; pair: [string, string] }[] = [];
  const unparsed: string[] = [];
  try {
    for (const file of files) {
      const source = file.text.replace(/^\uFEFF/, "");
      if (parsePython(source).rootNode.hasError) {
        unparsed.push(file.path);
        continue;
      }
      const plan = await analyzeSource({
        source,
        filename: file.path,
        displayName: path.basename(file.path),
        oracle,
        entryModule: true,
        checkpoints: true,
        capabilityNames: CAPABILITY_NAMES,
      });
      const count = Math.max(plan.checkpoints.length, file.checkpoints.length);
      for (let i = 0; i < count; i++) {
        const ours = plan.checkpoints[i];
        const bridge = file.checkpoints[i];
        const where = `${file.path}: checkpoint ${i + 1}`;
        if (!ours || !bridge || JSON.stringify(comparable(ours)) !== JSON.stringify(comparable(bridge))) {
          differences.push(`${where}\n  frontend: ${JSON.stringify(ours && comparable(ours))}\n  bridge:   ${JSON.stringify(bridge && comparable(bridge))}`);
          break;
        }
        if (ours.annotation !== bridge.annotation) {
          if (ours.annotation === null || bridge.annotation === null) differences.push(`${where}: annotation ${ours.annotation} | ${bridge.annotation}`);
          else annotationPairs.push({ where, pair: [ours.annotation, bridge.annotation] });
        }
      }
    }
  } finally {
    await oracle.close();
  }
  const same = JSON.parse(execFileSync(PYTHON, ["-c", SAME_EXPRESSION], { input: JSON.stringify(annotationPairs.map((p) => p.pair)), encoding: "utf8" })) as boolean[];
  for (const [i, p] of annotationPairs.entries()) if (!same[i]) differences.push(`${p.where}: annotation ${p.pair[0]} | ${p.pair[1]}`);
  assert.deepEqual(differences.slice(0, 20), [], `${differences.length} files differ`);
  assert.ok(unparsed.length < files.length / 100, `tree-sitter cannot parse ${unparsed.length} files: ${unparsed.join(", ")}`);
});
