// The `text_to_speech` capability (SPEC §10): text spoken by the route's `/v1/audio/speech`
// (through the openai client), written to `.aiython/artifacts/speech-NAME-KEY.FORMAT`. The result
// is the audio file's path. It writes a file, so it is not pure: it runs alone and is not cached
// (its answer is recorded for --replay while the journal records).

import { extensionOf, type ArtifactKind } from "../artifacts.js";
import type { CapabilityHandler } from "../handler.js";
import { number, oneOf, params, text } from "../plan/schema-parts.js";
import { malformed, viaOpenAI } from "../service/transport.js";

const FORMATS = ["mp3", "wav", "opus", "aac", "flac", "pcm"] as const;

export const textToSpeech: CapabilityHandler = {
  name: "text_to_speech",
  guide: "text_to_speech {text, voice?, format?: mp3|wav|opus|aac|flac|pcm, speed?, instructions?, name?} -> audio file path",
  params: params({ text: text(), voice: text(), format: oneOf(FORMATS), speed: number(0.25, 4), instructions: text(), name: text() }, ["text"]),
  needs: () => "text_to_speech",
  pure: () => false,
  writesFiles: () => true,
  floats: [],
  async run(p, ctx) {
    const format = (p.format as string | undefined) ?? "mp3";
    const voice = (p.voice as string | undefined) ?? "alloy";
    const answer = await ctx.call({
      capability: "text_to_speech",
      endpoint: "/audio/speech",
      routes: ctx.routes("text_to_speech"),
      request: { text: p.text, voice, format, speed: p.speed ?? null, instructions: p.instructions ?? null },
      cacheable: false,
      effect: true,
      perform: (route, env) =>
        viaOpenAI(route, env, async (client, options) => {
          const body = {
            model: route.model,
            voice,
            input: p.text as string,
            response_format: format,
            ...(p.speed ? { speed: p.speed as number } : {}),
            ...(p.instructions ? { instructions: p.instructions as string } : {}),
          };
          const response = (await client.audio.speech.create(body as never, options)) as unknown as Response;
          const bytes = Buffer.from(await response.arrayBuffer());
          if (bytes.length === 0) throw malformed("the audio is empty");
          return { json: { mime: response.headers.get("content-type") }, blob: bytes };
        }),
    });
    const mime = (answer.json as { mime: string | null }).mime;
    const kind: ArtifactKind = "speech";
    const name = ctx.artifacts.name(kind, (p.name as string | undefined) ?? ctx.stepId, answer.key, extensionOf(mime, format === "pcm" ? "pcm" : format));
    return ctx.artifacts.write(name, answer.blob ?? Buffer.alloc(0));
  },
};
