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

/**
 * The options every openai client of ours is made with: retries are ours (SPEC §5.4, deadline-
 * and route-aware); never OPENAI_ORG_ID / OPENAI_PROJECT_ID / OPENAI_ADMIN_KEY from the
 * environment (the client would send the ids as headers to whatever server the route names, and
 * an admin key has no business here); never OPENAI_LOG=debug, which would print request bodies
 * and raw provider error bodies (SPEC §9).
 */
export function clientOptions(apiKey: string, baseURL: string) {
  return { apiKey, baseURL, maxRetries: 0, adminAPIKey: null, organization: null, project: null, logLevel: "off" } as const;
}
