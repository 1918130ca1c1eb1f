// Every capability of SPEC §10 end to end: the built CLI runs a program whose blocks the plan model
// answers with `run_plan` steps, against loopback fakes of each endpoint (test/support/
// capability-fakes.ts). Each result reaches the program as a real value, each request carries what
// the endpoint expects, and generated media land under .aiython/artifacts with telling names.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { capabilityConfig, FAKE_MP4, PNG_1X1, startCapabilityFakes, wavComment, wavWithComment } from "./support/capability-fakes.js";
import { field } from "./support/multipart.js";
import { finishWith, runPlan, startPlanModel } from "./support/plan-model.js";
import { aiython, cleanEnv } from "./support/run-cli.js";
import { tempProject } from "./support/temp-project.js";

const KEY = "sk-capability-test-KEY-41d2";
const env = (extra: Record<string, string> = {}) => cleanEnv({ FAKES_API_KEY: KEY, AIYTHON_NO_CACHE: "1", ...extra });

const PROGRAM = `import os
vectors = embed the two greetings
print(len(vectors), len(vectors[0]), type(vectors[0][0]).__name__)
ranked = rank the fruit documents
print([r["index"] for r in ranked], ranked[0]["text"])
seen = describe the chart
print(seen)
answer = answer from the handbook
print(answer.splitlines()[-1])
heard = transcribe the call
print(heard)
spoken = speak the summary
print(os.path.relpath(spoken))
drawn = draw a logo
print(os.path.relpath(drawn))
edited = edit the logo
print(os.path.relpath(edited))
watched = describe the clip
print(watched)
made = make a clip
print(os.path.relpath(made))
`;

const a = (p: string) => ({ $asset: p });

const BLOCKS = {
  "embed the two greetings": [runPlan([{ id: "v", capability: "embedding", params: { input: ["hello world", "good morning world"] } }]), finishWith("v")],
  "rank the fruit documents": [
    runPlan([{ id: "r", capability: "reranking", params: { query: "ripe banana", documents: ["an apple", "a ripe banana", "banana bread"] } }]),
    finishWith("r"),
  ],
  "describe the chart": [runPlan([{ id: "s", capability: "vision", params: { prompt: "What does the chart show?", images: [a("chart.png")] } }]), finishWith("s")],
  "answer from the handbook": [
    runPlan([{ id: "d", capability: "document_understanding", params: { document: a("handbook.md"), question: "How many days of leave?" } }]),
    finishWith("d"),
  ],
  "transcribe the call": [runPlan([{ id: "t", capability: "speech_to_text", params: { audio: a("call.wav") } }]), finishWith("t")],
  "speak the summary": [runPlan([{ id: "sp", capability: "text_to_speech", params: { text: "All tickets are routed.", format: "wav", name: "summary" } }]), finishWith("sp")],
  "draw a logo": [runPlan([{ id: "g", capability: "image_generation", params: { prompt: "a small red fox logo", name: "logo" } }]), finishWith("g")],
  "edit the logo": [runPlan([{ id: "e", capability: "image_editing", params: { image: a("chart.png"), prompt: "make it blue", name: "blue" } }]), finishWith("e")],
  "describe the clip": [runPlan([{ id: "w", capability: "video", params: { action: "understand", frames: [a("frames")], prompt: "What happens?" } }]), finishWith("w")],
  "make a clip": [runPlan([{ id: "m", capability: "video", params: { action: "generate", prompt: "a fox running", seconds: 4, name: "fox" } }]), finishWith("m")],
};

function project(config: string): string {
  return tempProject({
    "aiython.toml": config,
    "p.py": PROGRAM,
    "chart.png": { copy: pngFile() },
    "frames/001.png": { copy: pngFile() },
    "frames/002.png": { copy: pngFile() },
    "handbook.md": "# Handbook\n\n## Leave\n\nEveryone gets 25 days of leave a year.\n",
    "call.wav": { copy: wavFile("the customer wants a refund") },
  });
}

test("each capability answers through its endpoint, and the program gets real values", async () => {
  const fakes = await startCapabilityFakes();
  const model = await startPlanModel(BLOCKS);
  try {
    const root = project(capabilityConfig(fakes.url, model.url, undefined, "FAKES_API_KEY"));
    const ran = await aiython(["p.py"], { cwd: root, env: env({ AIYTHON_JOB_POLL_MS: "20" }) });
    assert.equal(ran.stderr, "");
    assert.equal(ran.exitCode, 0);
    const lines = ran.stdout.split("\n");
    assert.equal(lines[0], "2 64 float");
    assert.equal(lines[1], "[1, 2, 0] a ripe banana");
    assert.equal(lines[2], "seen 1 images: What does the chart show?");
    assert.match(lines[3], /How many days of leave\?$/);
    assert.equal(lines[4], "the customer wants a refund");
    assert.match(lines[5], /^\.aiython\/artifacts\/speech-summary-[0-9a-f]{8}\.wav$/);
    assert.match(lines[6], /^\.aiython\/artifacts\/image-logo-[0-9a-f]{8}\.png$/);
    assert.match(lines[7], /^\.aiython\/artifacts\/edited-image-blue-[0-9a-f]{8}\.png$/);
    assert.equal(lines[8], "seen 2 images: These are frames of one video, in order. What happens?");
    assert.match(lines[9], /^\.aiython\/artifacts\/video-fox-[0-9a-f]{8}\.mp4$/);

    assert.equal(wavComment(fs.readFileSync(path.join(root, lines[5]))), "All tickets are routed.");
    assert.deepEqual(fs.readFileSync(path.join(root, lines[6])), PNG_1X1);
    assert.deepEqual(fs.readFileSync(path.join(root, lines[7])), PNG_1X1);
    assert.deepEqual(fs.readFileSync(path.join(root, lines[9])), FAKE_MP4);

    const one = (p: string) => {
      const found = fakes.requests.filter((r) => r.path === p);
      assert.ok(found.length > 0, `no request to ${p}`);
      return found[0];
    };
    assert.equal(one("/v1/embeddings").json.model, "fake-embedding");
    assert.deepEqual(one("/v1/embeddings").json.input, ["hello world", "good morning world"]);
    assert.equal(one("/v1/rerank").json.model, "fake-reranking");
    const chats = fakes.requests.filter((r) => r.path === "/v1/chat/completions");
    assert.deepEqual(chats.map((r) => r.json.model).sort(), ["fake-document-understanding", "fake-vision", "fake-vision"]);
    const image = chats
      .find((r) => JSON.stringify(r.json).includes("chart show"))!
      .json.messages.at(-1)
      .content.find((p: any) => p.type === "image_url");
    assert.equal(image.image_url.url, `data:image/png;base64,${PNG_1X1.toString("base64")}`);
    assert.match(JSON.stringify(chats.find((r) => r.json.model === "fake-document-understanding")!.json), /25 days of leave/);
    const stt = one("/v1/audio/transcriptions");
    assert.equal(field(stt.form, "model"), "fake-speech-to-text");
    assert.deepEqual(stt.form.find((p) => p.name === "file")!.data, wavFile("the customer wants a refund", true));
    assert.equal(one("/v1/audio/speech").json.input, "All tickets are routed.");
    assert.equal(one("/v1/images/generations").json.prompt, "a small red fox logo");
    assert.equal(field(one("/v1/images/edits").form, "prompt"), "make it blue");
    assert.equal(field(one("/v1/videos").form, "prompt"), "a fox running");
    for (const r of fakes.requests) assert.equal(r.headers.authorization, `Bearer ${KEY}`);
    for (const file of fs.readdirSync(path.join(root, ".aiython"), { recursive: true }) as string[]) {
      const full = path.join(root, ".aiython", file);
      if (fs.statSync(full).isFile()) assert.equal(fs.readFileSync(full).includes(KEY), false, `${file} holds the key`);
    }
  } finally {
    await Promise.all([fakes.close(), model.close()]);
  }
});

let png: string | null = null;
function pngFile(): string {
  png ??= writeTemp("one.png", PNG_1X1);
  return png;
}
function wavFile(comment: string, bytes?: true): any {
  const data = wavWithComment(comment);
  return bytes ? data : writeTemp(`call-${comment.length}.wav`, data);
}
function writeTemp(name: string, data: Buffer): string {
  const dir = tempProject({}, { git: false, prefix: "aiython-media-" });
  fs.writeFileSync(path.join(dir, name), data);
  return path.join(dir, name);
}
