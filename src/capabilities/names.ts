// The capability names of SPEC §10: the routes a block can use besides the chat model. The list
// itself lives with the other fixed bounds in src/defaults.ts (configuration checks
// `[capabilities.NAME]` against it too); the frontend is given it to check
// `# aiython: capability="…"` directives (SPEC §3.3). `baseNeed` lives here rather than with the
// handlers (registry.ts) so that asking it loads no capability's code.

import { CAPABILITY_NAMES, LOCAL_CAPABILITIES, ROUTED_CAPABILITIES } from "../host-tool-defaults.js";

export { CAPABILITY_NAMES, LOCAL_CAPABILITIES, ROUTED_CAPABILITIES };

export type RoutedCapability = (typeof ROUTED_CAPABILITIES)[number];
export type LocalCapability = (typeof LOCAL_CAPABILITIES)[number];
export type CapabilityName = RoutedCapability | LocalCapability;

export function isCapabilityName(name: unknown): name is CapabilityName {
  return typeof name === "string" && CAPABILITY_NAMES.includes(name);
}

/** The routed capability each capability needs to be usable at all (document_understanding works locally too). */
export function baseNeed(name: CapabilityName): string | null {
  switch (name) {
    case "indexing":
    case "semantic_search":
      return "embedding";
    case "document_understanding":
      return null;
    default:
      return name;
  }
}
