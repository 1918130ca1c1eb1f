// A ModelPort that passes every request to the live client and hands each successful
// request/answer pair to the journal (SPEC §11), in the order the answers came: each gets its
// place in the run (`seq`) at once, and the answer carries it (the effects its tool calls start
// refer to it, §11.2). Failures pass through unrecorded: a replay of a failed call should fail the
// same way, by finding nothing. The pair is handed over as it is: its key, occurrence and stored
// JSON are worked out when the journal writes it (journal-writes.ts), not between this answer and
// the program's next step — unless a replay already worked them out (`counted`, --replay=fill).

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

/** An exchange to record: its place in the run, when it ended, and its stored form, made when it is written. */
export interface ExchangeToRecord {
  seq: number;
  at: Date;
  origin: { invocation: string; round: number } | null;
  /** The request's key and occurrence, when a replay lookup already counted it. */
  counted: { key: string; occurrence: number } | null;
  stored: () => RecordedExchange;
}

/** Where recorded answers go: a place in the run's order, then the exchange. */
export interface ExchangeSink {
  nextSeq(): number;
  record(exchange: ExchangeToRecord): void;
}

export function recordingModel(live: ModelPort, route: RouteName, sink: ExchangeSink, counted: ExchangeToRecord["counted"] = null): ModelPort {
  return {
    async complete(request, options) {
      // Object.assign, not a spread: docs/architecture.md, "Memory per block".
      const response = await live.complete(request, counted ? Object.assign({}, options, { counted }) : options);
      const seq = sink.nextSeq();
      sink.record({ seq, at: new Date(), origin: options.origin ?? null, counted, stored: () => storedExchange(route, request, response) });
      return Object.assign({}, response, { exchange: { seq, from: null } });
    },
  };
}

/** The request and answer as the journal keeps them (the request's messages are a copy made for this request alone). */
export function storedExchange(route: RouteName, request: ModelRequest, response: ModelResponse): RecordedExchange {
  const { key, requestJson } = requestKey(route, request);
  return { key, block: blockKey(request), route: route.id, model: route.model, requestJson, responseJson: responseJson(response) };
}
