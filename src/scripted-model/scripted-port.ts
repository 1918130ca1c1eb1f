// The scripted model (`AIYTHON_MODEL=script:rules.toml`, or a route `model = "script:PATH"`): a
// ModelPort that answers each request from a rules file, in this process, with no server and no
// key. The first rule whose conditions hold answers; a sequence gives its answers in turn, one per
// request its rule answers in the run, and wraps around; in the k-th run of `aiython eval`
// (AIYTHON_EVAL_RUN=k) it starts at its k-th answer, so that a flaky rule is flaky across runs.
// A request no rule answers names itself, its place and the nearest rule: a block fails with that
// AIError, a recovery re-raises with it as the explanation.
// Each answer is one request to the budget (SPEC §13) and counts tokens as a quarter of its bytes.

import { ENV_EVAL_RUN } from "../defaults.js";
import { ModelCallError, type ModelCallOptions, type ModelPort, type ModelRequest, type ModelResponse, type ToolCall } from "../model-port.js";
import { loadRules } from "./load-rules.js";
import { factsOf, matchingRule, missMessage } from "./match.js";
import { refusedCalls, reraiseCalls, replyCalls } from "./replies.js";
import type { Answer, Rule, Rules } from "./rules.js";
import type { StopSignal } from "../stop-signal.js";

export interface ScriptedRoute {
  /** The route's id as configured (`script:rules.toml`). */
  id: string;
  /** The rules file's absolute path. */
  file: string;
}

export function scriptedModel(route: ScriptedRoute, env: NodeJS.ProcessEnv): ModelPort {
  const offset = Math.max(0, Number.parseInt(env[ENV_EVAL_RUN] ?? "1", 10) - 1 || 0);
  const used = new Map<number, number>();
  const next = (rule: Rule): Answer => {
    const count = used.get(rule.index) ?? 0;
    used.set(rule.index, count + 1);
    return rule.answers[(offset + count) % rule.answers.length];
  };
  return {
    async complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse> {
      const rules = await loadRules(route.file);
      const started = Date.now();
      options.attempts?.sending?.({ route: route.id, attempt: 1 });
      const { calls, delay } = reply(rules, request, next);
      if (delay > 0) await pause(delay * 1000, options.signal);
      if (options.signal?.aborted) throw new ModelCallError("cancelled", "the request was cancelled");
      const requestBytes = Buffer.byteLength(JSON.stringify({ messages: request.messages, tools: request.tools }));
      const usage = tokens(requestBytes, calls);
      const seconds = (Date.now() - started) / 1000;
      options.attempts?.sent?.({ route: route.id, attempt: 1, requestBytes, usage, status: 200, outcome: "answer", server: "script", startedAt: started, seconds });
      return { message: { content: null, tool_calls: calls }, usage, requestBytes, providerSeconds: seconds, route: route.id };
    },
  };
}

function reply(rules: Rules, request: ModelRequest, next: (rule: Rule) => Answer): { calls: ToolCall[]; delay: number } {
  const facts = factsOf(request.messages);
  const rule = matchingRule(rules, facts);
  if (rule === null) {
    // A block fails with the AIError; a recovery re-raises, and its notice on stderr says why.
    if (facts.mode === "block") throw new ModelCallError("not_found", missMessage(rules, facts));
    return { calls: reraiseCalls(missMessage(rules, facts)), delay: 0 };
  }
  if (facts.lastTool !== null) return { calls: refusedCalls(rule, facts, rules.shown), delay: 0 };
  const answer = next(rule);
  return { calls: replyCalls(answer, facts, rule, rules.shown), delay: answer.delay };
}

function tokens(requestBytes: number, calls: ToolCall[]) {
  const answerBytes = calls.reduce((sum, c) => sum + Buffer.byteLength(c.function.arguments) + c.function.name.length, 0);
  const prompt = Math.ceil(requestBytes / 4);
  const completion = Math.ceil(answerBytes / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function pause(ms: number, signal: StopSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
