// What aiython says when a block needs a capability that has no route (SPEC §10): the invocation
// ends with an `error` outcome naming the capability (the block raises AIError), and one line on
// stderr — once per capability and run — gives the `aiython setup --capability NAME` that would
// configure it. A block whose `capability` directive names such a capability fails before any
// model call, since nothing the model could do would help.

import { baseNeed, isCapabilityName } from "../capabilities/names.js";
import type { ProfileSettings } from "../config/index.js";
import type { InvocationEnd } from "../invocation-record.js";
import type { PauseRequest } from "../bridge/protocol.js";

export function directiveCapabilityEnd(profile: ProfileSettings, request: PauseRequest): InvocationEnd | null {
  const wanted = request.directive?.capability ?? null;
  if (wanted === null || !isCapabilityName(wanted)) return null;
  const need = baseNeed(wanted);
  if (need === null || profile.capabilities[need]) return null;
  const via = need === wanted ? "" : ` (${wanted} uses it)`;
  return {
    status: "failed",
    reason: `capability "${need}" is not configured${via}: the block's directive asks for ${wanted}, and aiython.toml has no [capabilities.${need}] route`,
    missing_capability: need,
  };
}

export function missingCapabilityHint(end: InvocationEnd, shown: Set<string>): void {
  if (end.status !== "failed" || end.missing_capability === undefined) return;
  const name = end.missing_capability;
  if (!isCapabilityName(name) || shown.has(name)) return;
  shown.add(name);
  process.stderr.write(`aiython: capability "${name}" has no route; configure one with: aiython setup --capability ${name}\n`);
}
