// The project a capability example runs in under `npm run demo`: a temporary folder with a copy of
// examples/ (the script, notes/, media/) and an aiython.toml routing the chat model to the stand-in
// and every capability of SPEC §10 to loopback fakes of its endpoint. The fakes answer document
// questions with the sentence of the document that shares the most words with the question, so
// examples/notes_search.py prints a sensible answer.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { capabilityConfig, startCapabilityFakes, wordsOf } from "../../test/support/capability-fakes.js";

export interface DemoProject {
  dir: string;
  fakesUrl: string;
  requests(): number;
  close(): Promise<void>;
}

export async function capabilityProject(script: string, modelUrl: string): Promise<DemoProject> {
  const fakes = await startCapabilityFakes({ chat: answerFromDocument });
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "aiython-demo-")));
  fs.cpSync(path.dirname(script), dir, { recursive: true, filter: (from) => path.basename(from) !== "demo" });
  fs.writeFileSync(path.join(dir, "aiython.toml"), capabilityConfig(fakes.url, modelUrl));
  return {
    dir,
    fakesUrl: fakes.url,
    requests: () => fakes.requests.length,
    close: async () => {
      await fakes.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** "Document …:\n\n<text>\n\nQuestion: <q>" → the sentence of <text> nearest to <q>. */
function answerFromDocument(body: any): string {
  const last = body.messages?.at(-1)?.content;
  const text = Array.isArray(last) ? last.map((p: any) => p.text ?? "").join(" ") : String(last ?? "");
  const at = text.lastIndexOf("Question:");
  if (at === -1) return "I cannot tell from the document.";
  const question = new Set(wordsOf(text.slice(at + "Question:".length)));
  const sentences = text
    .slice(0, at)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !s.startsWith("#") && !s.startsWith("Document "));
  let best = "I cannot tell from the document.";
  let score = 0;
  for (const sentence of sentences) {
    const hits = wordsOf(sentence).filter((w) => question.has(w)).length;
    if (hits > score) [best, score] = [sentence, hits];
  }
  return best;
}
