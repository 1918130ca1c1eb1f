// A ModelPort that passes every request to the live client and hands each successful
// request/answer pair to the journal (SPEC §11). Failures pass through unrecorded: a replay of a
// failed call should fail the same way, by finding nothing. The pair is handed over as it is:
// its key and stored JSON are worked out when the journal writes it (journal-writes.ts), not
// between this answer and the program's next step.

import type { ModelPort, ModelRequest, ModelResponse } from "../model-port.js";
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

/** An exchange to record: the time it ended and its stored form, made when it is written. */
export interface ExchangeToRecord {
  at: Date;
  stored: () => RecordedExchange;
}

export function recordingModel(live: ModelPort, route: RouteName, record: (exchange: ExchangeToRecord) => void): ModelPort {
  return {
    async complete(request, options) {
      const response = await live.complete(request, options);
      record({ at: new Date(), stored: () => storedExchange(route, request, response) });
      return response;
    },
  };
}

/** The request and answer as the journal keeps them (the request's messages are a copy made for this request alone). */
export function storedExchange(route: RouteName, request: ModelRequest, response: ModelResponse): RecordedExchange {
  const { key, requestJson } = requestKey(route, request);
  return { key, block: blockKey(request), route: route.id, model: route.model, requestJson, responseJson: responseJson(response) };
}
