// `--replay` (SPEC §11): a ModelPort that answers from the journal by request key and never
// touches the network. A request the recording does not hold fails the invocation with a
// ModelCallError whose message names the block, the nearest recorded request for it and what
// differs (replay-miss.ts); the orchestrator raises it in the program as AIError. With
// `--replay=fill` the journal is a cassette: what it holds is replayed, anything else goes to
// the live model (metered, and recorded for next time).

import { ModelCallError, type ModelPort } from "../model-port.js";
import { blockKey, blockOf, requestKey, responseFromJson, type RouteName } from "./exchange-of.js";
import { missMessage, type RecordedRequest } from "./replay-miss.js";

/** What replay reads from the journal. */
export interface ReplaySource {
  /** The stored answer's JSON; null when there is none; `unavailable` when the journal could not be opened. */
  lookup(key: string): Promise<string | null | { unavailable: string }>;
  /** The recorded requests about one block ("file:line"), newest first. */
  candidates(block: string): Promise<RecordedRequest[]>;
}

/** `fill`: where a request the journal does not hold goes instead of failing. */
export function replayingModel(route: RouteName, source: ReplaySource, display: (file: string) => string, fill: ModelPort | null = null): ModelPort {
  return {
    async complete(request, options) {
      const { key, requestJson } = requestKey(route, request);
      const found = await source.lookup(key);
      if (typeof found === "string") return responseFromJson(found);
      if (fill) return fill.complete(request, options); // a journal that cannot be read has warned already
      const block = blockOf(request, display);
      if (found !== null) {
        throw new ModelCallError("not_found", `--replay: no recorded answer for ${block} — the journal is not available (${found.unavailable})`);
      }
      const stored = blockKey(request);
      throw new ModelCallError("not_found", missMessage(block, requestJson, stored === null ? [] : await source.candidates(stored)));
    },
  };
}
