// One plain chat completion (no tools) for the capabilities that answer in text: vision (image
// parts), document_understanding (a question about local text) and video understanding (frames
// to the vision route). The answer is the first choice's text.

import type { RoutedCapability } from "../names.js";
import type { StepContext } from "../handler.js";
import { malformed, viaOpenAI } from "../service/transport.js";

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } };

export interface ChatAsk {
  capability: RoutedCapability;
  system: string | null;
  content: ContentPart[];
  /** What decides the answer besides the route, for the cache key (images by content hash). */
  request: unknown;
  maxTokens?: number;
}

export async function askChat(ask: ChatAsk, ctx: StepContext): Promise<string> {
  const messages = [...(ask.system ? [{ role: "system" as const, content: ask.system }] : []), { role: "user" as const, content: ask.content }];
  const answer = await ctx.call({
    capability: ask.capability,
    endpoint: "/chat/completions",
    routes: ctx.routes(ask.capability),
    request: { ...(ask.request as object), system: ask.system, max_tokens: ask.maxTokens ?? null },
    cacheable: true,
    effect: false,
    perform: (route, env) =>
      viaOpenAI(route, env, async (client, options) => {
        const body = { model: route.model, messages, ...(ask.maxTokens ? { max_tokens: ask.maxTokens } : {}) };
        const completion = (await client.chat.completions.create(body as never, options)) as unknown as {
          choices?: { message?: { content?: unknown } }[];
          usage?: { prompt_tokens?: number; completion_tokens?: number };
        };
        const text = completion.choices?.[0]?.message?.content;
        if (typeof text !== "string") throw malformed("the completion has no text");
        return { json: { text }, usage: { input: completion.usage?.prompt_tokens, output: completion.usage?.completion_tokens } };
      }),
  });
  return (answer.json as { text: string }).text;
}
