// Keeps credentials out of everything aiython writes about a run (SPEC §9): trace lines and
// journal rows pass through a redactor that replaces every known secret with "[redacted]". The
// model never sees a key, but program data can hold one (a program may read its own environment),
// and a key must not reach disk even then.

export type Redactor = (text: string) => string;

export const REDACTED = "[redacted]";
/** Shorter values are too likely to occur by chance to be replaced. */
const MIN_SECRET_LENGTH = 8;
/** Environment variables whose values are treated as secrets even when no route uses them. */
const SECRET_NAME = /(^|_)(API_KEY|KEY|TOKEN|SECRET|PASSWORD)$/i;

export function secretsFrom(routeKeys: Iterable<string | null>, env: NodeJS.ProcessEnv): string[] {
  const found = new Set<string>();
  const add = (secret: string) => {
    found.add(secret);
    // Also as it appears inside a JSON string (quotes, backslashes, control characters escaped).
    found.add(JSON.stringify(secret).slice(1, -1));
  };
  for (const key of routeKeys) if (key && key.length >= MIN_SECRET_LENGTH) add(key);
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name)) add(value);
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** A redactor that gathers its secrets on first use: reading every variable of the environment
 * is start-up time, and a run that writes nothing about itself never redacts. */
export function lazyRedactor(secrets: () => readonly string[]): Redactor {
  let redact: Redactor | undefined;
  return (text) => (redact ??= makeRedactor(secrets()))(text);
}

export function makeRedactor(secrets: readonly string[]): Redactor {
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}
