// TOML values as exactly typed JSON text for a `literal` answer: an integer (a bigint, as the rules
// file is read) is written as an integer and a float always with a fraction or exponent, so that
// Python's strict type contracts (SPEC §6: an int is not a float) see what the rule wrote. Dates
// have no JSON form and are refused; so are NaN and the infinities (SPEC §5.2: no NaN).

export function exactJson(value: unknown, fail: (problem: string) => never): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail("NaN and infinities have no JSON form; write a finite number");
    const text = JSON.stringify(value);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => exactJson(item, fail)).join(",")}]`;
  if (value instanceof Date || (typeof value === "object" && value !== null && "isDate" in value)) {
    return fail("dates have no JSON form; write the date as a string");
  }
  if (typeof value === "object" && value !== null) {
    const fields = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${exactJson(item, fail)}`);
    return `{${fields.join(",")}}`;
  }
  return fail(`a ${typeof value} has no JSON form`);
}

/** A related value from the request's JSON equals a rule's TOML value (integers as bigint; strings contain the rule's text). */
export function valueMatches(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "string") return typeof actual === "string" && actual.includes(expected);
  if (typeof expected === "bigint") return typeof actual === "number" && Number.isInteger(actual) && BigInt(actual) === expected;
  if (typeof expected === "number") return typeof actual === "number" && actual === expected;
  if (typeof expected === "boolean") return actual === expected;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => valueMatches(item, actual[i]));
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
    const entries = Object.entries(expected);
    return entries.length === Object.keys(actual).length && entries.every(([key, item]) => valueMatches(item, (actual as Record<string, unknown>)[key]));
  }
  return false;
}
