// A loopback OTLP/HTTP trace collector for tests (node:http only): it accepts POST /v1/traces in
// both OTLP encodings, records every request, and answers each in one write. JSON bodies
// (http/json) are parsed into spans with their attributes flattened; protobuf bodies
// (http/protobuf) are kept raw — tests check their content type and the strings they carry
// (protobuf writes strings as plain UTF-8). `silent: true` makes a black hole that accepts
// connections and never answers, to show the exporter gives up within its bound.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface CollectedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startNanos: bigint;
  endNanos: bigint;
  status: { code?: number; message?: string };
  attributes: Record<string, string | number | boolean>;
  /** Attributes of the resource the span came with. */
  resource: Record<string, string | number | boolean>;
}

export interface CollectedRequest {
  path: string;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface OtlpCollector {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  url: string;
  requests: CollectedRequest[];
  /** Every span of every JSON request, in arrival order. */
  spans(): CollectedSpan[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

function flatten(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}

function spansOf(body: Buffer): CollectedSpan[] {
  const parsed = JSON.parse(body.toString("utf8")) as {
    resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
  };
  return (parsed.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((span) => ({
        name: String(span.name),
        kind: Number(span.kind),
        traceId: String(span.traceId),
        spanId: String(span.spanId),
        parentSpanId: String(span.parentSpanId ?? ""),
        startNanos: BigInt(String(span.startTimeUnixNano)),
        endNanos: BigInt(String(span.endTimeUnixNano)),
        status: (span.status ?? {}) as { code?: number; message?: string },
        attributes: flatten(span.attributes as KeyValue[]),
        resource: flatten(rs.resource?.attributes),
      })),
    ),
  );
}

export async function startOtlpCollector(opts: { silent?: boolean } = {}): Promise<OtlpCollector> {
  const requests: CollectedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "");
      requests.push({ path: (req.url ?? "/").split("?")[0], contentType, headers: { ...req.headers }, body: Buffer.concat(parts) });
      if (opts.silent) return;
      // An empty ExportTraceServiceResponse in the request's own encoding, in one write.
      const json = contentType.includes("json");
      const body = json ? Buffer.from("{}") : Buffer.alloc(0);
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf", "content-length": body.length });
      res.end(body);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => requests.filter((r) => r.contentType.includes("json")).flatMap((r) => spansOf(r.body)),
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
