// Documents and local indexes end to end (SPEC §10): a PDF's text is read page by page (unpdf) and
// chunked locally with its page numbers, Markdown chunks keep their headings, and an index is tied
// to the embedding model that made its vectors — a search through another model is refused with
// the fix, not answered with meaningless scores.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { capabilityConfig, startCapabilityFakes } from "./support/capability-fakes.js";
import { finishWith, runPlan, startPlanModel } from "./support/plan-model.js";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";
import { tinyPdf } from "./support/tiny-pdf.js";

const env = cleanEnv({ OPENAI_API_KEY: "sk-documents-test" });

test("a PDF is read page by page and Markdown by heading, locally, with no request", async () => {
  const fakes = await startCapabilityFakes();
  const model = await startPlanModel({
    "read the guide": [runPlan([{ id: "c", capability: "document_understanding", params: { document: { $asset: "guide.pdf" } } }]), finishWith("c")],
    "read the notes": [runPlan([{ id: "c", capability: "document_understanding", params: { document: { $asset: "notes.md" } } }]), finishWith("c")],
    "read the memo": [runPlan([{ id: "c", capability: "document_understanding", params: { document: { $asset: "memo.pdf" } } }]), finishWith("c")],
  });
  try {
    const program =
      "pdf = read the guide\nprint([(c['page'], c['text']) for c in pdf])\nmd = read the notes\nprint([(c['heading'], c['text']) for c in md])\n" +
      "memo = read the memo\nprint([(c['page'], c['text']) for c in memo])\n";
    const root = tempProject({
      "aiython.toml": capabilityConfig(fakes.url, model.url, ["embedding"]),
      "p.py": program,
      "notes.md": "# Shipping\n\nShipping is free over 50 euros.\n",
    });
    fs.writeFileSync(path.join(root, "guide.pdf"), tinyPdf(["Refunds take five days.", "Shipping is free."]));
    fs.writeFileSync(path.join(root, "memo.pdf"), tinyPdf(["One page only."]));
    const ran = await aiython(["p.py"], { cwd: root, env });
    assert.equal(ran.stderr, "");
    const [pdfLine, mdLine, memoLine] = ran.stdout.split("\n");
    assert.equal(pdfLine, "[(1, 'Refunds take five days.'), (2, 'Shipping is free.')]");
    assert.equal(memoLine, "[(1, 'One page only.')]", "a one-page PDF's chunks are on page 1");
    assert.match(mdLine, /^\[\('Shipping', '.*Shipping is free over 50 euros\.'\)\]$/);
    assert.equal(fakes.requests.length, 0);
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
});

test("an index is tied to its embedding model: a search through another model says to index again", async () => {
  const fakes = await startCapabilityFakes();
  const index = [{ id: "i", capability: "indexing", params: { index: "kb", documents: [{ id: "tea", text: "Green tea steeps two minutes." }] } }];
  const search = [{ id: "q", capability: "semantic_search", params: { index: "kb", query: "tea" } }];
  const model = await startPlanModel({ "build the index": [runPlan(index), finishWith("i")], "search the index": [runPlan(search), finishWith("q")] });
  try {
    const root = tempProject({
      "aiython.toml": capabilityConfig(fakes.url, model.url, ["embedding"]),
      "build.py": "x = build the index\nprint(x['chunks'])\n",
      "find.py": "x = search the index\nprint(x[0]['source'])\n",
    });
    assert.equal((await aiython(["build.py"], { cwd: root, env })).stdout, "1\n");
    assert.equal((await aiython(["find.py"], { cwd: root, env })).stdout, "tea\n");
    const toml = path.join(root, "aiython.toml");
    fs.writeFileSync(toml, fs.readFileSync(toml, "utf8").replace('"fake-embedding"', '"fake-embedding-2"'));
    const other = await aiython(["find.py"], { cwd: root, env });
    assert.equal(other.exitCode, 1);
    assert.match(other.stderr, /index \\"kb\\" holds vectors of fake-embedding, not of the embedding route fake-embedding-2; index the documents again with this route/);
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
});
