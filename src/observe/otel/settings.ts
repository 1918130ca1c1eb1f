// Whether this run exports spans (SPEC §11), from the standard OpenTelemetry variables only:
// OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT names the collector, and
// OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turns it off. The exporter itself reads
// the rest (headers, timeout, compression). Import-free, so that deciding costs a run nothing:
// the SDK is loaded only when this returns settings (otel-sink.ts).

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface OtelSettings {
  protocol: OtlpProtocol;
  /** Message contents, tool arguments and results on spans (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true). */
  captureContent: boolean;
  /** Where spans go, for the warning when they cannot be sent (no credentials, query or fragment). */
  endpoint: string;
  /** A protocol the exporters cannot speak (grpc), for a one-line warning; nothing is exported then. */
  unsupported: string | null;
}

export function otelSettings(env: NodeJS.ProcessEnv): OtelSettings | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!traces && !general) return null;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return null;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return null;
  const asked = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
  const protocol: OtlpProtocol = asked === "http/json" ? "http/json" : "http/protobuf";
  const unsupported = asked === "http/json" || asked === "http/protobuf" || asked === "" ? null : asked;
  const endpoint = traces ? shownUrl(traces) : `${shownUrl(general as string).replace(/\/$/, "")}/v1/traces`;
  return { protocol, captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true", endpoint, unsupported };
}

function shownUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(an unparsable URL)";
  }
}
