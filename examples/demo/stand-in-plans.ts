// The stand-in model's `run_plan` answers (SPEC §10) for the capability examples:
// examples/notes_search.py (index the notes, search them, answer from the nearest) and
// examples/transcribe.py (speech to text, then text to speech). The first round sends the plan;
// the next finishes with the handle of the plan's last step. Anything else is not its business.

import { finishCall, toolCall, type ScriptedReply } from "../../test/support/loopback-model.js";

const PLANS: { match: RegExp; steps: object[] }[] = [
  {
    match: /index the notes folder/,
    steps: [
      { id: "index", capability: "indexing", params: { index: "notes", files: [{ $asset: "notes" }] } },
      { id: "nearest", capability: "semantic_search", params: { index: "notes", query: { $binding: "question" }, k: 2 } },
    ],
  },
  {
    match: /answer the question from the context/,
    steps: [{ id: "answer", capability: "document_understanding", params: { text: { $binding: "context" }, question: { $binding: "question" } } }],
  },
  { match: /^transcribe /, steps: [{ id: "heard", capability: "speech_to_text", params: { audio: { $asset: "media/call.wav" } } }] },
  {
    match: /read the transcript back as speech/,
    steps: [{ id: "spoken", capability: "text_to_speech", params: { text: { $binding: "transcript" }, format: "wav", name: "transcript" } }],
  },
];

/** The reply for a capability example's block, or null when the statement is not one of them. */
export function planReply(statement: string, lastTool: string | null): ScriptedReply | null {
  const plan = PLANS.find((p) => p.match.test(statement));
  if (!plan) return null;
  if (lastTool === null) return { toolCalls: [toolCall("run_plan", { steps: plan.steps })] };
  const last = (plan.steps.at(-1) as { id: string }).id;
  const step = JSON.parse(lastTool)?.result?.steps?.[last];
  if (step?.status !== "ok") return finishCall({ kind: "error", reason: `the plan did not finish: ${JSON.stringify(step ?? JSON.parse(lastTool)).slice(0, 300)}` });
  return finishCall({ kind: "handle", id: step.result.handle });
}
