// The `speech_to_text` capability (SPEC §10): an audio file of the project transcribed by the
// route's `/v1/audio/transcriptions` (multipart, through the openai client). The result is the
// transcript's text. Pure and cached by the audio's content hash.

import path from "node:path";
import type { CapabilityHandler } from "../handler.js";
import { StepError } from "../step-error.js";
import { asset, params, text } from "../plan/schema-parts.js";
import { malformed, viaOpenAI } from "../service/transport.js";

export const speechToText: CapabilityHandler = {
  name: "speech_to_text",
  guide: "speech_to_text {audio: $asset, language?, prompt?} -> transcript text",
  params: params({ audio: asset, language: text(), prompt: text() }, ["audio"]),
  needs: () => "speech_to_text",
  pure: () => true,
  writesFiles: () => false,
  floats: [],
  async run(p, ctx) {
    const file = ctx.asset(p.audio);
    if (file.kind !== "file") throw new StepError(`$asset "${file.rel}" is a folder; speech_to_text takes one audio file`);
    const bytes = ctx.assets.read(file);
    const answer = await ctx.call({
      capability: "speech_to_text",
      endpoint: "/audio/transcriptions",
      routes: ctx.routes("speech_to_text"),
      request: { audio: `sha256:${ctx.assets.contentHash(file)}`, language: p.language ?? null, prompt: p.prompt ?? null },
      cacheable: true,
      effect: false,
      perform: (route, env) =>
        viaOpenAI(route, env, async (client, options, mod) => {
          const upload = await mod.toFile(bytes, path.basename(file.rel));
          const body = {
            file: upload,
            model: route.model,
            response_format: "json" as const,
            ...(p.language ? { language: p.language as string } : {}),
            ...(p.prompt ? { prompt: p.prompt as string } : {}),
          };
          const result = (await client.audio.transcriptions.create(body, options)) as unknown as { text?: unknown; usage?: { input_tokens?: number; output_tokens?: number } };
          if (typeof result.text !== "string") throw malformed("the transcription has no text");
          return { json: { text: result.text }, usage: { input: result.usage?.input_tokens, output: result.usage?.output_tokens } };
        }),
    });
    return (answer.json as { text: string }).text;
  },
};
