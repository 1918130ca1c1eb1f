// The run's per-route admission (src/model/rate-limiter.ts, SPEC §7 `rate_limit`,
// §8): requests and tokens per minute counted across every caller, a 429 holding back every
// request to that route, and a wait past the deadline refused as rate_limited. A fake clock:
// `sleep` advances it, so waits are exact and instant.

import assert from "node:assert/strict";
import { test } from "node:test";
import { RouteLimiter } from "../src/model/rate-limiter.js";
import { ModelCallError } from "../src/model/errors.js";
import type { ChatRoute } from "../src/model/types.js";

function clock() {
  let now = 1_000_000;
  const slept: number[] = [];
  // Concurrent sleepers all start before the clock moves; each wakes at its own end.
  const limiter = new RouteLimiter(
    async (ms) => {
      const from = now;
      slept.push(ms);
      await new Promise((resolve) => setImmediate(resolve));
      now = Math.max(now, from + ms);
    },
    () => now,
  );
  return { limiter, slept, now: () => now };
}

const route = (rateLimit: ChatRoute["rateLimit"] = null, model = "m"): ChatRoute => ({ id: `openai/${model}`, model, apiBase: "http://127.0.0.1:9/v1", rateLimit }) as ChatRoute;
const far = { deadline: Number.MAX_SAFE_INTEGER };

test("requests_per_minute: the request past the limit waits for the window's oldest to leave it", async () => {
  const { limiter, slept } = clock();
  const limited = route({ requestsPerMinute: 2 });
  await limiter.admit(limited, () => 0, far);
  await limiter.admit(limited, () => 0, far);
  assert.deepEqual(slept, []);
  await limiter.admit(limited, () => 0, far);
  assert.deepEqual(slept, [60_000]);
});

test("tokens_per_minute counts the answer's real tokens in place of the estimate", async () => {
  const { limiter, slept } = clock();
  const limited = route({ tokensPerMinute: 1000 });
  const settle = await limiter.admit(limited, () => 400, far);
  settle(900);
  await limiter.admit(limited, () => 400, far);
  assert.deepEqual(slept, [60_000], "900 used + 400 more > 1000: wait a window");
});

test("a 429 holds back every request to that route, not other routes", async () => {
  const { limiter, slept } = clock();
  const a = route(null, "a");
  limiter.backoff(a, 2_500);
  await limiter.admit(route(null, "b"), () => 0, far);
  assert.deepEqual(slept, []);
  await Promise.all([limiter.admit(a, () => 0, far), limiter.admit(route(null, "a"), () => 0, far)]);
  assert.deepEqual(slept, [2_500, 2_500], "both callers of route a waited");
});

test("a wait past the deadline is refused as rate_limited, naming the limit and the fix", async () => {
  const { limiter, now } = clock();
  const limited = route({ requestsPerMinute: 1 });
  await limiter.admit(limited, () => 0, far);
  await assert.rejects(
    limiter.admit(limited, () => 0, { deadline: now() + 10_000 }),
    (error: unknown) => {
      assert.ok(error instanceof ModelCallError);
      assert.equal(error.kind, "rate_limited");
      assert.match(error.message, /rate_limit of 1 requests per minute/);
      assert.match(error.message, /raise rate_limit or timeout in aiython\.toml/);
      return true;
    },
  );
});

test("the requests' times kept per route: none without requests_per_minute, at most the limit with it", async () => {
  const { limiter } = clock();
  const kept = () => [...(limiter as unknown as { states: Map<string, { requests: number[] }> }).states.values()].map((s) => s.requests.length);
  for (let i = 0; i < 1000; i++) await limiter.admit(route(null, "free"), () => 0, far);
  assert.deepEqual(kept(), [0], "a route without a limit remembers no request (a fast run held a minute of them)");
  const limited = route({ requestsPerMinute: 3 }, "limited");
  for (let i = 0; i < 3; i++) await limiter.admit(limited, () => 0, far);
  assert.deepEqual(kept(), [0, 3], "a limited route remembers its requests in the window");
});
