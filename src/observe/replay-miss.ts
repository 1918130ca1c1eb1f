// Why `--replay` found no answer (SPEC §11): the message of a miss names the nearest request the
// journal holds for the same block and, in a few lines, what differs — the statement text, the
// values of related objects, the tools, the model, or the conversation so far — so that a user can
// tell an edited program from a changed input or another model. Values themselves are never
// shown (they are program data): only the names of what changed, and the statement's source text.
//
// Requests are compared as the journal stores them (exchangeRequestJson: route, model, messages,
// tools, parameters). The messages are read as §5.1 lays them out — system prompt, the stable JSON
// user message, the live one, then the conversation — and any other shape is compared message by
// message, so a change of the request content degrades the detail, not the answer.

import { canonicalJson } from "../canonical-json.js";

interface StoredRequest {
  route?: unknown;
  model?: unknown;
  messages?: { role?: unknown; content?: unknown; tool_calls?: unknown }[];
  tools?: { function?: { name?: unknown } }[];
  parameters?: unknown;
}

/** A recorded request of the block: its JSON as stored, and which run recorded it when. */
export interface RecordedRequest {
  requestJson: string;
  runId: number | null;
  /** ISO 8601. */
  recordedAt: string | null;
}

const MAX_TEXT = 80;
/** A request recorded exactly, but fewer times than this run asks it (SPEC §11.1: the n-th occurrence). */
const ASKED_MORE = "this run asks the same request more often than the recording answered it";

/** Words for the fields of the stable message (SPEC §5.1); others are named as they are. */
const STABLE_FIELDS: Record<string, string> = {
  code_context: "the code around it",
  location: "its position in the file",
  output_type: "the expected type",
  output_schema: "the expected type's schema",
  target: "the assignment target",
  requires_result: "whether it needs a value",
  hints: "the prompt hints",
  permissions: "the permissions",
};

/**
 * The miss message; `candidates` are the recorded requests of the block, newest first. The nearest
 * is the one with the fewest differences, the newest of those; it is named by its run (what
 * `aiython runs show` takes) and time.
 */
export function missMessage(block: string, requestJson: string, candidates: readonly RecordedRequest[]): string {
  const fix = "run once without --replay to record it, or with --replay=fill to record only what is missing";
  const now = parse(requestJson) ?? {};
  const compared = candidates.flatMap((candidate) => {
    const recorded = parse(candidate.requestJson);
    return recorded ? [{ candidate, diff: differences(recorded, now) }] : [];
  });
  if (compared.length === 0) return `--replay: no recorded answer for ${block} — ${fix}`;
  const nearest = compared.reduce((best, next) => (next.diff.length < best.diff.length ? next : best));
  const named = whence(nearest.candidate);
  if (nearest.diff.length === 0) return `--replay: no recorded answer for ${block}: ${ASKED_MORE}${named}\n${fix}`;
  const lines = nearest.diff;
  return [`--replay: no recorded answer for ${block}; the nearest recorded request for this block${named} differs in`, ...lines.map((l) => `  ${l}`), fix].join("\n");
}

/**
 * The same comparison in one line, for `aiython recheck` (SPEC §11.3): what differs from the
 * nearest recorded request of the block, or that the recording has none for it.
 */
export function missSummary(requestJson: string, candidates: readonly RecordedRequest[]): string {
  const now = parse(requestJson) ?? {};
  const diffs = candidates.flatMap((candidate) => {
    const recorded = parse(candidate.requestJson);
    return recorded ? [differences(recorded, now)] : [];
  });
  if (diffs.length === 0) return "no recorded request for this block";
  const nearest = diffs.reduce((best, next) => (next.length < best.length ? next : best));
  return nearest.length > 0 ? nearest.join("; ") : ASKED_MORE;
}

/** " (run 3, 2026-12-01 12:04 UTC)", or what of it is known. */
function whence(candidate: RecordedRequest): string {
  const at = candidate.recordedAt && !Number.isNaN(Date.parse(candidate.recordedAt)) ? `${new Date(candidate.recordedAt).toISOString().slice(0, 16).replace("T", " ")} UTC` : null;
  const parts = [candidate.runId !== null ? `run ${candidate.runId}` : null, at].filter((part) => part !== null);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

function parse(json: string): StoredRequest | null {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === "object" && value !== null ? (value as StoredRequest) : null;
  } catch {
    return null;
  }
}

/** One line per aspect that differs, most telling first. */
export function differences(recorded: StoredRequest, now: StoredRequest): string[] {
  const lines: string[] = [];
  const a = recorded.messages ?? [];
  const b = now.messages ?? [];
  const stableA = objectOf(a[1]?.content);
  const stableB = objectOf(b[1]?.content);
  if (stableA && stableB) {
    if (!same(stableA.statement, stableB.statement)) lines.push(`statement: recorded ${quoted(stableA.statement)}, now ${quoted(stableB.statement)}`);
    const other = changedKeys(stableA, stableB).filter((key) => key !== "statement");
    if (other.length > 0) lines.push(`the block: ${other.map((key) => STABLE_FIELDS[key] ?? key).join(", ")}`);
  } else if (!same(a[1], b[1])) {
    lines.push("the block's description (message 2)");
  }
  const liveA = objectOf(a[2]?.content);
  const liveB = objectOf(b[2]?.content);
  if (liveA && liveB) {
    lines.push(...namedChanges("related values", liveA.related_objects, liveB.related_objects));
    lines.push(...namedChanges("other values in the frame", liveA.frame_objects, liveB.frame_objects));
    const other = changedKeys(liveA, liveB).filter((key) => key !== "related_objects" && key !== "frame_objects");
    if (other.length > 0) lines.push(`live details: ${other.join(", ")}`);
  } else if (!same(a[2], b[2])) {
    lines.push("the values sent (message 3)");
  }
  lines.push(...toolChanges(recorded.tools ?? [], now.tools ?? []));
  if (!same(recorded.model, now.model) || !same(recorded.route, now.route)) {
    lines.push(`model: recorded ${String(recorded.route)} (${String(recorded.model)}), now ${String(now.route)} (${String(now.model)})`);
  }
  if (!same(a[0], b[0])) lines.push("the system prompt (recorded by another version of aiython?)");
  lines.push(...conversationChange(a, b));
  return lines;
}

function conversationChange(a: StoredRequest["messages"] & object, b: StoredRequest["messages"] & object): string[] {
  const first = Array.from({ length: Math.max(a.length, b.length) }, (_, i) => i).find((i) => i >= 3 && !same(a[i], b[i]));
  if (first === undefined) return [];
  const role = String((b[first] ?? a[first])?.role ?? "message");
  const counts = a.length === b.length ? `${a.length} messages each` : `recorded ${a.length} messages, now ${b.length}`;
  return [`the conversation: first at message ${first + 1} (${role}); ${counts}`];
}

function toolChanges(a: NonNullable<StoredRequest["tools"]>, b: NonNullable<StoredRequest["tools"]>): string[] {
  const byName = (tools: typeof a) => new Map(tools.map((tool) => [String(tool.function?.name), canonicalJson(tool)]));
  const [before, after] = [byName(a), byName(b)];
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.keys()].filter((name) => before.has(name) && before.get(name) !== after.get(name));
  const parts = [
    added.length > 0 ? `now also ${added.join(", ")}` : "",
    removed.length > 0 ? `no longer ${removed.join(", ")}` : "",
    changed.length > 0 ? `changed ${changed.join(", ")}` : "",
  ].filter((part) => part !== "");
  return parts.length > 0 ? [`tools: ${parts.join("; ")}`] : [];
}

/** Entries of arrays of `{name, ...}` whose contents differ, by name. */
function namedChanges(label: string, a: unknown, b: unknown): string[] {
  if (same(a, b)) return [];
  if (!Array.isArray(a) || !Array.isArray(b)) return [label];
  const index = (list: unknown[]) => new Map(list.map((entry, i) => [String((entry as { name?: unknown })?.name ?? `#${i}`), canonicalJson(entry ?? null)]));
  const [before, after] = [index(a), index(b)];
  const names = [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
  const tagged = names.map((name) => (!before.has(name) ? `${name} (new)` : !after.has(name) ? `${name} (gone)` : name));
  return [`${label}: ${tagged.join(", ")}`];
}

function objectOf(content: unknown): Record<string, unknown> | null {
  if (typeof content !== "string") return null;
  const parsed = parse(content);
  return parsed && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
}

function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !same(a[key], b[key])).sort();
}

function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

function quoted(text: unknown): string {
  const value = String(text ?? "");
  return JSON.stringify(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value);
}
