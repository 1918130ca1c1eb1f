// Loads the openai package on first use. Importing it costs about 100 ms of a cold start, which
// the start-up budget (SPEC §12) cannot pay for programs that never reach a model; so nothing
// imports it statically, and every client shares this one import.

import type * as OpenAIModule from "openai";

export type OpenAIModuleType = typeof OpenAIModule;

let loading: Promise<OpenAIModuleType> | null = null;

export function loadOpenAI(): Promise<OpenAIModuleType> {
  loading ??= import("openai");
  return loading;
}
