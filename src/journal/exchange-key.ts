// The key of a recorded model exchange (SPEC §11): SHA-256 of the canonical JSON of everything
// that decides the answer — the route id and model name, the messages, the tool schemas and the
// request parameters. Never the base URL (a local server's port changes from run to run) and
// never a credential. The same request of the same program gives the same key on every run, which
// is what lets `--replay` find it.

import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json.js";

export interface ExchangeRequest {
  /** Configured route id, e.g. "openai/gpt-4.1-mini" (the primary route of the profile). */
  route: string;
  /** Model name sent to the provider. */
  model: string;
  messages: unknown[];
  tools: unknown[];
  /** Request parameters other than messages and tools, e.g. `{tool_choice: "required"}`. */
  parameters: Record<string, unknown>;
}

/** The canonical JSON text of the request; stored beside the answer and hashed for the key. */
export function exchangeRequestJson(request: ExchangeRequest): string {
  return canonicalJson({
    route: request.route,
    model: request.model,
    messages: request.messages,
    tools: request.tools,
    parameters: request.parameters,
  });
}

export function exchangeKey(requestJson: string): string {
  return createHash("sha256").update(requestJson, "utf8").digest("hex");
}

/** SHA-256 of the program's arguments (the journal keeps this, never the arguments). */
export function argsHash(args: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(args), "utf8").digest("hex");
}

/** SHA-256 of what makes two runs "the same command line" (SPEC §11.1: the default source of --replay). */
export function commandKey(identity: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(identity ?? null), "utf8")
    .digest("hex");
}
