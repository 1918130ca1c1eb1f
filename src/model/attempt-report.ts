// What the chat client tells its caller about each HTTP request it sends (SPEC §11: a retry or a
// fallback is a request, counted like the first). The client calls `beginAttempt` before every
// request, which asks the caller's observer whether it may be sent (a spent budget, §13, throws
// and nothing is sent), and the returned function when the request has ended, answered or not.

import type { AttemptObserver, ModelAttempt } from "../model-port.js";
import type { AttemptFailure } from "./classify-failure.js";
import { hostPort } from "./errors.js";
import type { AttemptResult } from "./run-attempt.js";
import type { ChatRoute } from "./types.js";

export type EndAttempt = (result: AttemptResult) => void;

/** Numbers the requests of one call, across retries and routes. */
export interface AttemptCounter {
  sent: number;
}

export function beginAttempt(observer: AttemptObserver | undefined, route: ChatRoute, counter: AttemptCounter, now: () => number): EndAttempt {
  const attempt = counter.sent + 1;
  observer?.sending?.({ route: route.id, attempt });
  counter.sent = attempt;
  const startedAt = now();
  return (result) => observer?.sent?.(attemptReport(route, attempt, result, startedAt, now()));
}

function attemptReport(route: ChatRoute, attempt: number, result: AttemptResult, startedAt: number, endedAt: number): ModelAttempt {
  // Written out, not spread: docs/architecture.md, "Memory per block".
  const { requestBytes } = result;
  const server = hostPort(route.apiBase);
  const seconds = (endedAt - startedAt) / 1000;
  if (!result.ok) {
    const status = result.failure.kind === "status" ? result.failure.status : null;
    return { route: route.id, attempt, requestBytes, server, startedAt, seconds, status, outcome: failureLabel(result.failure) };
  }
  const report: ModelAttempt = { route: route.id, attempt, requestBytes, server, startedAt, seconds, status: 200, outcome: "answer" };
  if (result.answer.usage) report.usage = result.answer.usage;
  return report;
}

function failureLabel(failure: AttemptFailure): string {
  switch (failure.kind) {
    case "status":
      return failure.code ? `HTTP ${failure.status}, code ${failure.code}` : `HTTP ${failure.status}`;
    case "stream_error":
      return "an error event in the stream";
    case "network":
      return failure.reason;
    case "aborted":
      return "aborted";
    case "malformed":
      return "malformed answer";
    case "too_large":
      return "answer too large";
  }
}
