// The run's OpenTelemetry export (SPEC §11) as seen by the observers: it takes the invocation
// events like the trace file does. The SDK (tracing.ts) is imported at the first event, so a run
// that exports nothing, or reaches no AI block, never loads it; events that come while it loads
// wait here, and spans carry the events' own timestamps, so the wait changes nothing. At the end
// of the run the spans are sent within OTEL_EXIT_FLUSH_MS; what could not be sent — an
// unreachable collector, a protocol the exporters do not speak — is one warning line then,
// never output while the program runs.

import { OTEL_EXIT_FLUSH_MS } from "../../defaults.js";
import type { InvocationEvent } from "../../invocation-record.js";
import type { RunExit } from "../types.js";
import type { OtelSinkOptions } from "./sink-options.js";
import type { Tracing } from "./tracing.js";

export class OtelSink {
  private readonly waiting: InvocationEvent[] = [];
  private loading: Promise<Tracing | null> | null = null;
  private tracing: Tracing | null = null;
  private problem: string | null = null;

  constructor(private readonly opts: OtelSinkOptions) {}

  write(event: InvocationEvent): void {
    if (this.tracing) return this.tracing.handle(event);
    this.waiting.push(event);
    this.loading ??= this.load();
  }

  /** Ends the run's span and sends what is left, for at most OTEL_EXIT_FLUSH_MS. */
  async finish(exit: RunExit): Promise<void> {
    const tracing = this.loading ? await this.loading : null;
    const problem = tracing ? await tracing.finish(exit, OTEL_EXIT_FLUSH_MS) : this.problem;
    if (problem) this.opts.warn(`OpenTelemetry: ${problem}`);
  }

  private async load(): Promise<Tracing | null> {
    const { settings } = this.opts;
    if (settings.unsupported !== null) {
      this.problem = `OTEL_EXPORTER_OTLP_PROTOCOL=${settings.unsupported} is not supported; no spans were sent (use http/protobuf or http/json)`;
      return null;
    }
    try {
      const { startTracing } = await import("./tracing.js");
      const tracing = startTracing(this.opts);
      for (const event of this.waiting.splice(0)) tracing.handle(event);
      this.tracing = tracing;
      return tracing;
    } catch (error) {
      this.problem = `tracing could not start (${(error as Error).message}); no spans were sent`;
      return null;
    }
  }
}
