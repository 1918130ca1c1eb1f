// Every capability of SPEC §10 by name, and what the model is told about the available ones.

import { documentUnderstanding } from "./document/document-understanding.js";
import { embedding } from "./embedding/embedding.js";
import type { CapabilityHandler } from "./handler.js";
import { imageEditing, imageGeneration } from "./image/images.js";
import { baseNeed, type CapabilityName } from "./names.js";
import { reranking } from "./reranking/reranking.js";
import { indexing } from "./search/indexing.js";
import { semanticSearch } from "./search/semantic-search.js";
import { speechToText } from "./speech/speech-to-text.js";
import { textToSpeech } from "./speech/text-to-speech.js";
import { video } from "./video/video.js";
import { vision } from "./vision/vision.js";

export { baseNeed };

export const HANDLERS: Record<CapabilityName, CapabilityHandler> = {
  vision,
  document_understanding: documentUnderstanding,
  embedding,
  reranking,
  speech_to_text: speechToText,
  text_to_speech: textToSpeech,
  image_generation: imageGeneration,
  image_editing: imageEditing,
  video,
  indexing,
  semantic_search: semanticSearch,
};

/** Capabilities usable with these routes: the routed ones configured, local ones whose route is. */
export function availableCapabilities(routed: ReadonlySet<string>): CapabilityName[] {
  return (Object.keys(HANDLERS) as CapabilityName[]).filter((name) => {
    const need = baseNeed(name);
    return need === null ? routed.size > 0 : routed.has(need);
  });
}

export function guideOf(names: readonly CapabilityName[]): string {
  return names.map((name) => HANDLERS[name].guide).join("; ");
}
