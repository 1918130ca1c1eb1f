// `--replay` (SPEC §11): a ModelPort that answers from the journal by request key and never
// touches the network. A request the recording does not hold fails the invocation with a
// ModelCallError whose message names the block and the fix; the orchestrator raises it in the
// program as AIError.

import { ModelCallError, type ModelPort } from "../model-port.js";
import { blockOf, requestKey, responseFromJson, type RouteName } from "./exchange-of.js";

/** The stored answer's JSON; null when there is none; `unavailable` when the journal could not be opened. */
export type ExchangeLookup = (key: string) => Promise<string | null | { unavailable: string }>;

export function replayingModel(route: RouteName, lookup: ExchangeLookup, display: (file: string) => string): ModelPort {
  return {
    async complete(request) {
      const { key } = requestKey(route, request);
      const found = await lookup(key);
      const block = blockOf(request, display);
      if (found === null) {
        throw new ModelCallError("not_found", `--replay: no recorded answer for ${block} — run once without --replay to record it`);
      }
      if (typeof found !== "string") {
        throw new ModelCallError("not_found", `--replay: no recorded answer for ${block} — the journal is not available (${found.unavailable})`);
      }
      return responseFromJson(found);
    },
  };
}
