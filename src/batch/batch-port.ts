// The live model of a run in batch mode (SPEC §14): a ModelPort whose requests wait in the run's
// batches instead of going out one by one. The layers around it stay as they are — the budget
// admits each line before it joins a batch and prices it at the route's batch price (`batched`
// attempts), the journal records each answer as an exchange like any other, replay answers first —
// and the invocation's deadline is held while a request waits, since a batch may take hours. A
// line that failed or expired is sent again in a later batch, or live with
// `--batch=fallback-live`; one that fails `MAX_SENDS` times fails its block with the reason.

import { ModelCallError, type ModelPort, type ModelRequest, type ModelResponse } from "../model-port.js";
import { requestKey } from "../observe/exchange-of.js";
import type { BatchRoute } from "./batch-api.js";
import { lineBody, type LineResult } from "./batch-lines.js";
import type { BatchOffload } from "./offload.js";

/** Times one request is sent by batch before its block fails. */
export const MAX_SENDS = 3;

export interface BatchPortOptions {
  /** `--batch=fallback-live`: the live model a failed line goes to instead of the next batch. */
  fallbackLive: (() => ModelPort) | null;
}

export function batchPort(offload: BatchOffload, route: BatchRoute, { fallbackLive }: BatchPortOptions): ModelPort {
  const occurrences = new Map<string, number>();
  const counted = (request: ModelRequest) => {
    const { key } = requestKey(route, request);
    const occurrence = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, occurrence);
    return { key, occurrence };
  };
  const server = hostOf(route.apiBase);
  return {
    async complete(request, options) {
      const { key, occurrence } = options.counted ?? counted(request);
      let requestBytes = 0;
      // The body goes into the batch's file at once; this frame keeps none of it while it waits.
      const ask = (first: boolean) => {
        const body = lineBody(route.model, request);
        requestBytes = Buffer.byteLength(body, "utf8");
        return offload.ask({ route, body, key, occurrence }, first, options.signal);
      };
      const release = options.holdDeadline?.();
      try {
        for (let send = 1; ; send++) {
          options.attempts?.sending?.({ route: route.id, attempt: send });
          const startedAt = Date.now();
          const result = await ask(send === 1);
          if (options.signal?.aborted) throw new ModelCallError("cancelled", "the request was cancelled while it waited for its batch");
          const seconds = (Date.now() - startedAt) / 1000;
          options.attempts?.sent?.({
            route: route.id,
            attempt: send,
            requestBytes,
            ...(result.ok && result.usage ? { usage: result.usage } : {}),
            status: result.ok ? 200 : null,
            outcome: result.ok ? "answer" : `batch line failed (${result.reason})`,
            server,
            startedAt,
            seconds,
            batched: true,
          });
          if (result.ok) return answer(result, requestBytes, seconds, route.id);
          if (fallbackLive) {
            release?.();
            return await fallbackLive().complete(request, options);
          }
          if (send >= MAX_SENDS) throw new ModelCallError("server", `its request failed in ${send} batches (the last time: ${result.reason})`);
        }
      } finally {
        release?.();
      }
    },
  };
}

function answer(result: Extract<LineResult, { ok: true }>, requestBytes: number, seconds: number, route: string): ModelResponse {
  return { message: result.message, ...(result.usage ? { usage: result.usage } : {}), requestBytes, providerSeconds: seconds, route };
}

function hostOf(apiBase: string): string {
  try {
    return new URL(apiBase).host;
  } catch {
    return apiBase;
  }
}
