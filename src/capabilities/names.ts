// The capability names of SPEC §10: the routes a block can use besides the chat model. The list
// itself lives with the other fixed bounds in src/defaults.ts (configuration checks
// `[capabilities.NAME]` against it too); the frontend is given it to check
// `# aiython: capability="…"` directives (SPEC §3.3).

import { CAPABILITY_NAMES, LOCAL_CAPABILITIES, ROUTED_CAPABILITIES } from "../defaults.js";

export { CAPABILITY_NAMES, LOCAL_CAPABILITIES, ROUTED_CAPABILITIES };

export type RoutedCapability = (typeof ROUTED_CAPABILITIES)[number];
export type LocalCapability = (typeof LOCAL_CAPABILITIES)[number];
export type CapabilityName = RoutedCapability | LocalCapability;

export function isCapabilityName(name: unknown): name is CapabilityName {
  return typeof name === "string" && CAPABILITY_NAMES.includes(name);
}
