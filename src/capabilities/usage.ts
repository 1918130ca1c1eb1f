// Counting what capability steps cost (SPEC §10, §11, §13): every answer of the service layer is
// one record; provider calls are priced by the capability's `price` (USD per million input and
// output tokens, plus per call), answers from the cache or the journal cost nothing.

import type { CapabilitySettings } from "../config/index.js";
import type { CapabilityStats } from "../invocation-record.js";
import type { UsageRecord } from "./service/call-service.js";

export class UsageCounter {
  readonly stats: CapabilityStats = { calls: 0, cached: 0, replayed: 0, counts: {}, cost_usd: null, unpriced: [] };

  constructor(private readonly capabilities: Record<string, CapabilitySettings>) {}

  get used(): boolean {
    return this.stats.calls + this.stats.cached + this.stats.replayed > 0;
  }

  add(record: UsageRecord): void {
    const stats = this.stats;
    if (record.cached) stats.cached += 1;
    else if (record.replayed) stats.replayed += 1;
    if (record.cached || record.replayed) return;
    stats.calls += 1;
    stats.counts[record.capability] = (stats.counts[record.capability] ?? 0) + 1;
    const price = this.capabilities[record.capability]?.price ?? null;
    if (price === null) {
      if (!stats.unpriced.includes(record.capability)) stats.unpriced.push(record.capability);
      return;
    }
    const input = (record.usage?.input ?? 0) * (price.input ?? 0);
    const output = (record.usage?.output ?? 0) * (price.output ?? 0);
    stats.cost_usd = (stats.cost_usd ?? 0) + (price.perCall ?? 0) + (input + output) / 1e6;
  }
}
