// `--replay` (SPEC §11.1): a ModelPort that answers from the journal and never touches the
// network. The n-th time this run asks a request (by its key), it gets the n-th recorded answer
// to that request of the source run, else of the most recent other run that has one (the session
// counts and looks up: journal-session.ts). A replayed answer is recorded in this run as the row
// it came from. A request the recording does not hold — or whose recorded answer is damaged —
// fails the invocation with a ModelCallError whose message names the block, the nearest recorded
// request for it and what differs (replay-miss.ts); the orchestrator raises it in the program as
// AIError. With `--replay=fill` the journal is a cassette: what it holds is replayed, anything
// else goes to the live model (metered, and recorded for next time).

import { ModelCallError, type ExchangeRef, type ModelPort, type ModelResponse } from "../model-port.js";
import type { FoundAnswer } from "../journal/index.js";
import { blockKey, blockOf, requestKey, responseFromJson, type RouteName } from "./exchange-of.js";
import type { ExchangeToRecord } from "./recording-model.js";
import { missMessage, missSummary, type RecordedRequest } from "./replay-miss.js";

export type ReplayAnswer =
  | { kind: "found"; occurrence: number; found: FoundAnswer }
  | { kind: "missing"; occurrence: number }
  | { kind: "unavailable"; occurrence: number; reason: string };

/** A replayed answer to record in this run: the recorded row it came from. */
export interface ReplayedExchange {
  key: string;
  occurrence: number;
  found: FoundAnswer;
  block: string | null;
  route: RouteName;
  origin: { invocation: string; round: number } | null;
}

/** What replay reads from (and tells) the journal. */
export interface ReplaySource {
  /** Counts this request's occurrence in the run now, then finds its recorded answer. */
  answer(key: string): Promise<ReplayAnswer>;
  /** The recorded requests about one block ("file:line"), newest first. */
  candidates(block: string): Promise<RecordedRequest[]>;
  /** Records a replayed answer in this run; its place. */
  replayed(exchange: ReplayedExchange): ExchangeRef;
  /** The first request the recording could not answer (`aiython recheck`, SPEC §11.3). */
  missed?(miss: { block: string | null; summary: string }): void;
}

/** `fill`: the live port for a request the journal does not answer, given its counted key and occurrence. */
export function replayingModel(
  route: RouteName,
  source: ReplaySource,
  display: (file: string) => string,
  fill: ((counted: NonNullable<ExchangeToRecord["counted"]>) => ModelPort) | null = null,
): ModelPort {
  return {
    async complete(request, options) {
      const { key, requestJson } = requestKey(route, request);
      const answer = await source.answer(key);
      const block = blockKey(request);
      if (answer.kind === "found") {
        const response = parsed(answer.found.responseJson);
        if (response !== null) {
          const exchange = source.replayed({ key, occurrence: answer.occurrence, found: answer.found, block, route, origin: options.origin ?? null });
          // Object.assign, not a spread: docs/architecture.md, "Memory per block".
          return Object.assign({}, response, { exchange });
        }
      }
      if (fill) return fill({ key, occurrence: answer.occurrence }).complete(request, options); // a journal that cannot be read has warned already
      const shown = blockOf(request, display);
      if (answer.kind === "unavailable") {
        source.missed?.({ block, summary: `the journal is not available (${answer.reason})` });
        throw new ModelCallError("not_found", `--replay: no recorded answer for ${shown} — the journal is not available (${answer.reason})`);
      }
      if (answer.kind === "found") {
        const run = answer.found.runId === null ? "" : ` (run ${answer.found.runId})`;
        source.missed?.({ block, summary: `the recorded answer${run} is damaged` });
        throw new ModelCallError(
          "not_found",
          `--replay: the recorded answer for ${shown}${run} is damaged (not an answer aiython wrote); run with --replay=fill to ask again and record it`,
        );
      }
      const candidates = block === null ? [] : await source.candidates(block);
      source.missed?.({ block, summary: missSummary(requestJson, candidates) });
      throw new ModelCallError("not_found", missMessage(shown, requestJson, candidates));
    },
  };
}

/** The stored answer, or null when it is not one (a damaged row). */
function parsed(json: string): ModelResponse | null {
  try {
    return responseFromJson(json);
  } catch {
    return null;
  }
}
