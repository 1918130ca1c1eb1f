// Invocation events → OpenTelemetry spans, named and attributed as the GenAI semantic conventions
// say (SPEC §11). One trace per run:
//   aiython SCRIPT                         the run (INTERNAL)
//     invoke_agent aiython                 one AI invocation: a block or a recovery consultation
//       chat MODEL                         one model request (CLIENT), its retries included
//         POST                             each HTTP attempt of it (CLIENT, http.request.resend_count)
//       execute_tool TOOL                  each tool call the frame ran
// Spans carry the events' own timestamps, so they may be built after the fact: a chat span when
// its round has ended (its route and usage are known then). Token counts, routes, statuses and
// costs are always set; message contents, tool arguments and results only with content capture
// on, through the redactor. A key never reaches an event, so it never reaches a span.

import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { InvocationEvent } from "../../invocation-record.js";
import type { ChatMessage } from "../../model-port.js";
import type { RunExit } from "../types.js";
import { inputMessages, outputMessages, systemInstructions } from "./genai-messages.js";
import type { OtelSinkOptions, RouteInfo } from "./sink-options.js";

type Event<T extends InvocationEvent["type"]> = Extract<InvocationEvent, { type: T }>;

interface Round {
  startedAt: number;
  input: ChatMessage[];
  attempts: Event<"model_attempt">[];
}

interface Open {
  span: Span;
  ctx: Context;
  messages: ChatMessage[];
  round: Round | null;
  tools: Map<string, Span>;
}

/** gen_ai.provider.name for the providers aiython knows (the conventions' well-known values). */
const PROVIDER_NAMES: Record<string, string> = { openai: "openai", gemini: "gcp.gemini", openrouter: "openrouter", ollama: "ollama" };

export class SpanBuilder {
  private root: { span: Span; ctx: Context } | null = null;
  private readonly open = new Map<string, Open>();
  private readonly routes: Map<string, RouteInfo>;

  constructor(
    private readonly tracer: Tracer,
    private readonly opts: OtelSinkOptions,
  ) {
    this.routes = new Map(opts.routes.map((route) => [route.id, route]));
  }

  handle(event: InvocationEvent): void {
    if (event.type === "invocation_start") return this.startInvocation(event);
    const open = this.open.get(event.invocation);
    if (!open) return;
    switch (event.type) {
      case "model_request":
        open.messages.push(...event.messages);
        open.round = { startedAt: event.at, input: [...open.messages], attempts: [] };
        return;
      case "model_attempt":
        open.round?.attempts.push(event);
        return;
      case "model_response":
        return this.endRound(open, event.at, { output: outputMessages(event.content, event.tool_calls) });
      case "model_error":
        return this.endRound(open, event.at, { error: event.kind });
      case "tool_call":
        return this.startTool(open, event);
      case "tool_result":
        return this.endTool(open, event);
      case "outcome":
        return this.endInvocation(event.invocation, open, event);
    }
  }

  /** Ends what is still open (cancelled invocations) and the run's span. */
  finish(exit: RunExit): void {
    const now = Date.now();
    for (const [id, open] of this.open) {
      for (const span of open.tools.values()) span.end(now);
      open.span.setAttribute("aiython.outcome", "unfinished");
      open.span.end(now);
      this.open.delete(id);
    }
    if (!this.root) return;
    if (exit.status !== null) this.root.span.setAttribute("process.exit.code", exit.status);
    if (exit.signal !== null) this.root.span.setAttribute("aiython.exit.signal", exit.signal);
    this.root.span.end(now);
  }

  private runContext(): Context {
    if (!this.root) {
      // The run began when the process did: the spans' clock is the epoch, performance's its origin.
      const span = this.tracer.startSpan(`aiython ${this.opts.script}`, {
        kind: SpanKind.INTERNAL,
        startTime: performance.timeOrigin,
        attributes: { "aiython.script": this.opts.script },
      });
      this.root = { span, ctx: trace.setSpan(context.active(), span) };
    }
    return this.root.ctx;
  }

  private startInvocation(event: Event<"invocation_start">): void {
    const attributes: Attributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "aiython",
      "aiython.invocation.id": event.invocation,
      "aiython.mode": event.mode,
      "code.file.path": event.filename,
      "code.line.number": event.line,
    };
    const span = this.tracer.startSpan("invoke_agent aiython", { kind: SpanKind.INTERNAL, startTime: event.at, attributes }, this.runContext());
    this.open.set(event.invocation, { span, ctx: trace.setSpan(context.active(), span), messages: [], round: null, tools: new Map() });
  }

  private endRound(open: Open, at: number, end: { output: string } | { error: string }): void {
    const round = open.round;
    open.round = null;
    if (!round || round.attempts.length === 0) return; // nothing was sent (a refused or replayed request)
    const last = round.attempts[round.attempts.length - 1];
    const route = this.routes.get(last.route);
    const model = route?.model ?? last.route;
    const span = this.tracer.startSpan(`chat ${model}`, { kind: SpanKind.CLIENT, startTime: round.startedAt, attributes: this.chatAttributes(round, route, model) }, open.ctx);
    const ctx = trace.setSpan(open.ctx, span);
    for (const attempt of round.attempts) this.attemptSpan(attempt, ctx);
    if ("error" in end) {
      span.setAttribute("error.type", end.error);
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (this.opts.settings.captureContent) {
      span.setAttribute("gen_ai.output.messages", this.opts.redact(end.output));
    }
    span.end(at);
  }

  private chatAttributes(round: Round, route: RouteInfo | undefined, model: string): Attributes {
    const [address, port] = hostAndPort(round.attempts[round.attempts.length - 1].server);
    const sum = (pick: (usage: NonNullable<Event<"model_attempt">["usage"]>) => number | undefined) =>
      round.attempts.reduce((total, a) => total + (a.usage ? (pick(a.usage) ?? 0) : 0), 0);
    const reported = round.attempts.some((a) => a.usage);
    const costs = round.attempts.map((a) => a.cost_usd);
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": PROVIDER_NAMES[route?.provider ?? ""] ?? route?.provider ?? "unknown",
      "gen_ai.request.model": model,
      "server.address": address,
      ...(port !== null ? { "server.port": port } : {}),
      "aiython.route": round.attempts[round.attempts.length - 1].route,
      "aiython.attempts": round.attempts.length,
      // Unknown (a route without a price) is left out rather than reported as zero.
      ...(costs.every((c) => c !== null) ? { "aiython.cost.usd": costs.reduce<number>((total, c) => total + (c ?? 0), 0) } : {}),
    };
    if (reported) {
      attributes["gen_ai.usage.input_tokens"] = sum((u) => u.prompt_tokens);
      attributes["gen_ai.usage.output_tokens"] = sum((u) => u.completion_tokens);
      const cached = sum((u) => u.cached_tokens);
      if (cached > 0) attributes["gen_ai.usage.cache_read.input_tokens"] = cached;
    }
    if (this.opts.settings.captureContent) {
      const system = systemInstructions(round.input);
      if (system !== null) attributes["gen_ai.system_instructions"] = this.opts.redact(system);
      attributes["gen_ai.input.messages"] = this.opts.redact(inputMessages(round.input));
    }
    return attributes;
  }

  private attemptSpan(attempt: Event<"model_attempt">, parent: Context): void {
    const [address, port] = hostAndPort(attempt.server);
    const attributes: Attributes = {
      "http.request.method": "POST",
      "server.address": address,
      ...(port !== null ? { "server.port": port } : {}),
      ...(attempt.status !== null ? { "http.response.status_code": attempt.status } : {}),
      ...(attempt.attempt > 1 ? { "http.request.resend_count": attempt.attempt - 1 } : {}),
      "http.request.body.size": attempt.request_bytes,
    };
    const span = this.tracer.startSpan("POST", { kind: SpanKind.CLIENT, startTime: attempt.started_at, attributes }, parent);
    if (attempt.outcome !== "answer") {
      span.setAttribute("error.type", attempt.status !== null ? String(attempt.status) : attempt.outcome);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(attempt.started_at + attempt.seconds * 1000);
  }

  private startTool(open: Open, event: Event<"tool_call">): void {
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": event.name,
      "gen_ai.tool.call.id": event.call_id,
      "gen_ai.tool.type": "function",
    };
    if (this.opts.settings.captureContent) attributes["gen_ai.tool.call.arguments"] = this.opts.redact(JSON.stringify(event.arguments));
    open.tools.set(event.call_id, this.tracer.startSpan(`execute_tool ${event.name}`, { kind: SpanKind.INTERNAL, startTime: event.at, attributes }, open.ctx));
  }

  private endTool(open: Open, event: Event<"tool_result">): void {
    const span = open.tools.get(event.call_id);
    if (!span) return; // skipped calls never ran
    open.tools.delete(event.call_id);
    if (this.opts.settings.captureContent) span.setAttribute("gen_ai.tool.call.result", this.opts.redact(event.content));
    if (event.status === "error") {
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(event.at);
  }

  private endInvocation(id: string, open: Open, event: Event<"outcome">): void {
    for (const span of open.tools.values()) span.end(event.at);
    const { end } = event;
    open.span.setAttribute("aiython.outcome", end.status === "finished" ? (end.action ?? "finished") : "failed");
    if (end.status === "failed") {
      open.span.setAttribute("error.type", end.budget ? "AIBudgetError" : "AIError");
      // The reason may quote program data: it is content.
      open.span.setStatus({ code: SpanStatusCode.ERROR, ...(this.opts.settings.captureContent ? { message: this.opts.redact(end.reason) } : {}) });
    }
    open.span.end(event.at);
    this.open.delete(id);
  }
}

function hostAndPort(server: string): [string, number | null] {
  const at = server.lastIndexOf(":");
  const port = Number(server.slice(at + 1));
  return at > 0 && Number.isInteger(port) ? [server.slice(0, at), port] : [server, null];
}
