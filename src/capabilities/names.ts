// The capability names of SPEC §10: the routes a block can use besides the chat model. The one
// list: the frontend is given it to check `# aiython: capability="…"` directives (SPEC §3.3),
// and the configuration's `[capabilities.NAME]` tables will be checked against it.

export const CAPABILITY_NAMES: readonly string[] = [
  "vision", "document_understanding", "embedding", "reranking", "speech_to_text", "text_to_speech",
  "image_generation", "image_editing", "video", "indexing", "semantic_search",
];
