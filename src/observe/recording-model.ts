// A ModelPort that passes every request to the live client and hands each successful
// request/answer pair to the journal (SPEC §11). Failures pass through unrecorded: a replay of a
// failed call should fail the same way, by finding nothing.

import type { ModelPort } from "../model-port.js";
import { blockKey, requestKey, responseJson, type RouteName } from "./exchange-of.js";

export interface RecordedExchange {
  key: string;
  /** "file:line" of the block (for a `--replay` miss's nearest request), or null. */
  block: string | null;
  route: string;
  model: string;
  requestJson: string;
  responseJson: string;
}

export function recordingModel(live: ModelPort, route: RouteName, record: (exchange: RecordedExchange) => void): ModelPort {
  return {
    async complete(request, options) {
      const response = await live.complete(request, options);
      const { key, requestJson } = requestKey(route, request);
      record({ key, block: blockKey(request), route: route.id, model: route.model, requestJson, responseJson: responseJson(response) });
      return response;
    },
  };
}
