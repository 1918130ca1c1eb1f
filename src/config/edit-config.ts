// Editing aiython.toml for `aiython setup` (SPEC §7): a route's keys (`model`, `api_base`,
// `api_key_env`) are set at the top level, in `[profiles.NAME]`, or in a capability's table,
// keeping every comment and every other key. @decimalturn/toml-patch rewrites only what changed
// in a table the file already has; a table the file lacks is appended as its own `[section]` (the
// library would write it as a dotted key or an empty parent header). The result is parsed and
// validated like any aiython.toml before anyone writes it, so setup never leaves a broken file.

import { ConfigError } from "../errors.js";
import { CONFIG_VERSION } from "../defaults.js";
import type { ConfigDocument } from "./schema.js";
import { validateDocument } from "./validate-document.js";

/** The keys setup writes; undefined leaves a key as it is, null removes it. */
export interface RouteKeys {
  model: string;
  api_base?: string | null;
  api_key_env?: string | null;
}

export interface ConfigEdit {
  /** null: the top level. */
  profile: string | null;
  /** A capability route (SPEC §10) instead of the chat model. */
  capability: string | null;
  keys: RouteKeys;
}

type Table = Record<string, unknown>;

/** The new text of aiython.toml (`text` null: the file does not exist yet). */
export async function editConfigText(text: string | null, edit: ConfigEdit, displayName: string): Promise<string> {
  const toml = await import("@decimalturn/toml-patch");
  const source = text ?? `version = ${CONFIG_VERSION}\n`;
  let doc: Table;
  try {
    doc = toml.parse(source) as Table;
  } catch {
    throw new ConfigError(`${displayName}: not valid TOML, so setup leaves it alone; fix it (aiython config show names the line) and run setup again`);
  }
  const path = tablePath(edit);
  const existing = lookup(doc, path);
  let next: string;
  if (existing !== undefined) {
    applyKeys(existing, edit.keys);
    next = toml.patch(source, doc);
  } else {
    const fresh: Table = {};
    applyKeys(fresh, edit.keys);
    next = `${source.replace(/\n*$/, "\n")}\n[${path.map(bareOrQuoted).join(".")}]\n${toml.stringify(fresh).replace(/\n*$/, "\n")}`;
  }
  await checkResult(next, displayName);
  return next;
}

/** The `api_base` and `api_key_env` the table an edit would change holds now (null: none, or no such table or file). */
export async function currentServer(text: string | null, edit: Omit<ConfigEdit, "keys">): Promise<{ apiBase: string | null; apiKeyEnv: string | null }> {
  const none = { apiBase: null, apiKeyEnv: null };
  if (text === null) return none;
  const toml = await import("@decimalturn/toml-patch");
  let doc: Table;
  try {
    doc = toml.parse(text) as Table;
  } catch {
    return none; // editConfigText names the broken file
  }
  const table = lookup(doc, tablePath({ ...edit, keys: { model: "" } }));
  const text_ = (value: unknown) => (typeof value === "string" ? value : null);
  return table === undefined ? none : { apiBase: text_(table.api_base), apiKeyEnv: text_(table.api_key_env) };
}

/** Where the keys go: [], ["profiles", NAME], ["capabilities", CAP], or ["profiles", NAME, "capabilities", CAP]. */
function tablePath(edit: ConfigEdit): string[] {
  const base = edit.profile === null ? [] : ["profiles", edit.profile];
  return edit.capability === null ? base : [...base, "capabilities", edit.capability];
}

/** The table at `path` when it exists as a table; undefined when it (or a parent) does not. */
function lookup(doc: Table, path: readonly string[]): Table | undefined {
  let table: unknown = doc;
  for (const key of path) {
    if (typeof table !== "object" || table === null || Array.isArray(table)) return undefined;
    table = (table as Table)[key];
  }
  return typeof table === "object" && table !== null && !Array.isArray(table) ? (table as Table) : undefined;
}

function applyKeys(table: Table, keys: RouteKeys): void {
  for (const [key, value] of Object.entries(keys)) {
    if (value === undefined) continue;
    if (value === null) delete table[key];
    else table[key] = value;
  }
  // A route list or table replaced by a plain model id: its own api_base etc. went with it.
}

function bareOrQuoted(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

async function checkResult(text: string, displayName: string): Promise<ConfigDocument> {
  const { parse } = await import("smol-toml");
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    throw new ConfigError(`${displayName}: setup could not merge its keys into this file's layout; edit it by hand or move it aside and run setup again`);
  }
  return validateDocument(displayName, parsed);
}
