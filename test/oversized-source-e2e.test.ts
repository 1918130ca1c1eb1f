// End-to-end: a source line too long for CPython's parser (issue 35: a 1.7 MB line of natural
// language). python3 reports MemoryError and exits 1 before running anything; aiython does the
// same, byte for byte, with and without a model configured, where it ended in exit 70 ("the
// bridge failed before the program started").

import { test } from "node:test";
import { assertSame, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const LONG_LINE = `print("before")\nx = ${"word ".repeat(350_000)}\n`;

test("a line too long for CPython's parser is python3's MemoryError, nothing run", async () => {
  const dir = tempProject({ "main.py": LONG_LINE });
  await assertSame(["main.py"], { cwd: dir });
});

test("with a model configured, the same line is python3's MemoryError, nothing asked", async () => {
  const toml = 'version = 3\nmodel = { model = "m", api_base = "http://127.0.0.1:9/v1" }\n';
  const dir = tempProject({ "main.py": LONG_LINE, "aiython.toml": toml });
  await assertSame(["main.py"], { cwd: dir, env: cleanEnv({ OPENAI_API_KEY: "sk-test" }) });
});
