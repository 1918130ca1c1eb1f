// What the OpenTelemetry export is given by the observers (otel-sink.ts) and hands to the SDK's
// side (tracing.ts, span-builder.ts): the settings, the routes spans name, the script, the
// redactor and the warning line.

import type { Redactor } from "../redact.js";
import type { OtelSettings } from "./settings.js";

/** What spans say about a route: the shape of config's Route, passed in by run/. */
export interface RouteInfo {
  id: string;
  provider: string;
  model: string;
}

export interface OtelSinkOptions {
  settings: OtelSettings;
  routes: readonly RouteInfo[];
  /** How the program was named ("tickets.py", "-m pkg", "-c"), for the run's span. */
  script: string;
  redact: Redactor;
  /** Prints one line on stderr (the `aiython: ` prefix is the caller's). */
  warn: (message: string) => void;
}
