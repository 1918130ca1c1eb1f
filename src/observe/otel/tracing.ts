// The OpenTelemetry SDK of one run (SPEC §11): a tracer provider with the OTLP/HTTP exporter the
// settings pick (http/protobuf, OTLP's default, or http/json), a batch processor, and a resource
// named "aiython" unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise. The
// exporter reads the other standard variables itself (endpoint, headers, compression); its
// timeout is capped so that an unreachable collector costs the run at most the flush bound at
// exit. Failed exports are remembered here, never printed by the SDK (its diagnostics stay off),
// and `finish` words them as one line. The only importer of the SDK packages, with span-builder.ts
// (the API).

import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { OTEL_EXIT_FLUSH_MS, OTEL_SERVICE_NAME } from "../../defaults.js";
import type { InvocationEvent } from "../../invocation-record.js";
import { VERSION } from "../../version.js";
import type { RunExit } from "../types.js";
import type { OtelSinkOptions } from "./sink-options.js";
import { SpanBuilder } from "./span-builder.js";

export interface Tracing {
  handle(event: InvocationEvent): void;
  /** Ends open spans and sends everything within `capMs`; what went wrong, or null. */
  finish(exit: RunExit, capMs: number): Promise<string | null>;
}

type ExportCallback = Parameters<SpanExporter["export"]>[1];

export function startTracing(opts: OtelSinkOptions): Tracing {
  const failures = new ExportFailures();
  const exporter = watched(newExporter(opts), failures);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": OTEL_SERVICE_NAME, "service.version": VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const builder = new SpanBuilder(provider.getTracer("aiython", VERSION), opts);
  return {
    handle: (event) => builder.handle(event),
    async finish(exit, capMs) {
      builder.finish(exit);
      const done = await withinMs(
        provider.shutdown().then(
          () => true,
          () => false,
        ),
        capMs,
      );
      if (!done) failures.add(failures.last ?? `no answer within ${capMs / 1000} s`);
      return failures.describe(opts.settings.endpoint);
    },
  };
}

function newExporter(opts: OtelSinkOptions): SpanExporter {
  // The exporter retries within its timeout; the cap keeps all of it inside the exit bound.
  const configured = Number(process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? process.env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const timeoutMillis = Math.min(Number.isFinite(configured) && configured > 0 ? configured : OTEL_EXIT_FLUSH_MS, OTEL_EXIT_FLUSH_MS);
  return opts.settings.protocol === "http/json" ? new JsonExporter({ timeoutMillis }) : new ProtobufExporter({ timeoutMillis });
}

/** The exporter, with each failed export remembered. */
function watched(inner: SpanExporter, failures: ExportFailures): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: ExportCallback) {
      inner.export(spans, (result) => {
        if (result.code !== 0) failures.add(reasonOf(result.error), spans.length);
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

class ExportFailures {
  private spans = 0;
  last: string | null = null;

  add(reason: string, spans = 0): void {
    this.spans += spans;
    this.last = reason;
  }

  describe(endpoint: string): string | null {
    if (this.last === null) return null;
    const what = this.spans > 0 ? `${this.spans} span${this.spans === 1 ? "" : "s"}` : "the spans";
    return `could not send ${what} to ${endpoint} (${this.last}); check OTEL_EXPORTER_OTLP_ENDPOINT and that the collector is running`;
  }
}

/** A short, safe reason: an error code or an HTTP status, never a response body or a header. */
function reasonOf(error: Error | undefined): string {
  if (!error) return "export failed";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code;
  if (typeof code === "number") return `HTTP ${code}`;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof cause === "string" && /^[A-Z_]+$/.test(cause)) return cause;
  return /timed? ?out/i.test(error.message) ? "timed out" : "export failed";
}

function withinMs<T>(work: Promise<T>, ms: number): Promise<T | false> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void work.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
