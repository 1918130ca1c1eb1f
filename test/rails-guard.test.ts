// End-to-end: the source guard (SPEC §9). A scripted model's `execute` calls try to overwrite the
// running script, delete a sibling module, and start processes; each is refused with a tool error
// naming what was refused, the files stay byte-identical, no process starts, and the program's
// own code afterwards does all of it unhindered.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { finishCall, toolCall } from "./support/loopback-model.js";
import { runWithModel, toolMessages } from "./support/run-with-model.js";

const MAIN = `import os, subprocess
import helper
summary = tidy up the project folder
print(summary)
print("started" in os.listdir("."), "spawned" in os.listdir("."))
subprocess.run(["touch", "own-process"])
with open("helper.py", "a") as f:
    f.write("# the program's own write\\n")
print(os.path.exists("own-process"))
`;
const HELPER = "VALUE = 1\n";

const execute = (code: string) => ({ toolCalls: [toolCall("execute", { code })] });

test("a model that overwrites main.py, deletes a module and spawns processes changes nothing", async () => {
  const run = await runWithModel({ "main.py": MAIN, "helper.py": HELPER }, [
    execute("open(__file__, 'w').write('print(1)')"),
    execute("import os; os.remove('helper.py')"),
    execute("import subprocess; subprocess.run(['touch', 'started'])"),
    execute("import os; os.system('touch spawned')"),
    execute("import os\ntry:\n    os.replace('helper.py', 'main.py')\nexcept OSError:\n    pass"),
    finishCall({ kind: "literal", value: "tidied" }),
  ]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "tidied\nFalse False\nTrue\n");
  assert.equal(fs.readFileSync(path.join(run.dir, "main.py"), "utf8"), MAIN, "main.py is byte-identical");
  assert.equal(fs.readFileSync(path.join(run.dir, "helper.py"), "utf8"), `${HELPER}# the program's own write\n`);
  const results = toolMessages(run.requests[5]);
  assert.deepEqual(
    results.map((r) => [r.status, r.error]),
    Array(5).fill(["error", "GuardError"]),
  );
  assert.match(results[0].message!, /refused writing main\.py \(a source file\)/);
  assert.match(results[1].message!, /refused deleting helper\.py/);
  assert.match(results[2].message!, /refused starting a process \(subprocess\.Popen: touch started\)/);
  assert.match(results[3].message!, /refused starting a process \(os\.system: touch spawned\)/);
  assert.match(results[4].message!, /refused renaming helper\.py/, "a refusal the model's code caught is still reported");
});

test("the guard covers recovery too: a repair may not rewrite the source before a retry", async () => {
  const main = "value = int('x')\nprint(value)\n";
  const run = await runWithModel({ "main.py": main }, [
    { toolCalls: [toolCall("execute", { code: "open(__file__, 'w').write(\"value = 1\\nprint(value)\\n\")" })] },
    { toolCalls: [toolCall("recover", { action: "complete", outcome: { kind: "literal", value: 7 } })] },
  ]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "7\n");
  assert.equal(fs.readFileSync(path.join(run.dir, "main.py"), "utf8"), main);
  assert.equal(toolMessages(run.requests[1])[0].error, "GuardError");
});

test("a tool that imports a project module nothing has imported yet is not blamed for aiython's own cache write", async () => {
  const main = "value = read the setting\nprint(value)\n";
  const run = await runWithModel({ "main.py": main, "settings.py": "LEVEL = 3\n" }, [
    execute("import settings\nlevel = settings.LEVEL"),
    { toolCalls: [toolCall("finish", { outcome: { kind: "expression", code: "settings.LEVEL" } })] },
  ]);
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "3\n");
  assert.deepEqual(toolMessages(run.requests[1]), [{ status: "ok", result: { ok: true } }]);
});

test("a tool may not end the run; one that gets past the guard and ends the interpreter is reported, never taken for the program's end", async () => {
  const main = 'print("before", flush=True)\nx = tidy up\nprint("after", x)\n';
  const refused = await runWithModel({ "main.py": main }, [
    execute("import os\nos._exit(0)"),
    execute("import os\nos.closerange(0, 4096)"),
    finishCall({ kind: "literal", value: 1 }),
  ]);
  assert.equal(refused.exitCode, 0, refused.stderr);
  assert.equal(refused.stdout, "before\nafter 1\n");
  assert.match(toolMessages(refused.requests[1])[0].message!, /refused os\._exit\(\): a tool cannot end the program/);
  assert.match(toolMessages(refused.requests[2])[1].message!, /refused os\.closerange of descriptor 0/);
  // The built-in dug out of the guard's stand-in (README: not something a Python-level guard can stop).
  const dug = "import os\nf = next((c.cell_contents for c in (os._exit.__closure__ or ()) if getattr(c.cell_contents, '__name__', '') == '_exit'), os._exit)\nf(0)";
  const ended = await runWithModel({ "main.py": main }, [execute(dug)]);
  assert.equal(ended.exitCode, 1);
  assert.equal(ended.stdout, "before\n");
  assert.equal(ended.stderr, "aiython: main.py:2: the execute tool was running when the Python process ended (exit status 0); the rest of the program did not run\n");
});
