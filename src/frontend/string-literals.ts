// String literals for the scanner: where a literal ends (single-quoted ones stop, unterminated,
// at a line break; triple-quoted ones may run to the end of the text) and, in f-strings, the
// span of each replacement field's expression, format-spec fields included. Fields are read with
// PEP 701 rules (3.12+: any quote inside a field) when the nested string closes on its line, and
// as the end of the f-string otherwise (older interpreters). Offsets are UTF-16 code units.

export function isAsciiNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
export function isAsciiNameChar(c: number): boolean {
  return isAsciiNameStart(c) || (c >= 48 && c <= 57);
}
export function isLineBreak(c: number): boolean {
  return c === 10 || c === 13;
}
export function isStringPrefix(word: string): boolean {
  if (word.length > 2) return false;
  const w = word.toLowerCase();
  return ["r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt"].includes(w);
}

export interface FieldSpan {
  start: number;
  end: number;
}

interface StringRead {
  end: number;
  terminated: boolean;
  fields: FieldSpan[];
}

/** Reads a string body from its opening quote. Single-quoted strings stop at a line break. */
export function readString(text: string, quote: number, formatted: boolean): StringRead {
  const n = text.length;
  const q = text.charCodeAt(quote);
  const triple = text.charCodeAt(quote + 1) === q && text.charCodeAt(quote + 2) === q;
  const fields: FieldSpan[] = [];
  let i = quote + (triple ? 3 : 1);
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 92) {
      const next = text.charCodeAt(i + 1);
      i += next === 13 && text.charCodeAt(i + 2) === 10 ? 3 : 2;
    } else if (c === q) {
      if (!triple) return { end: i + 1, terminated: true, fields };
      if (text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q) return { end: i + 3, terminated: true, fields };
      i++;
    } else if (isLineBreak(c)) {
      if (!triple) return { end: i, terminated: false, fields };
      i++;
    } else if (formatted && c === 123) {
      if (text.charCodeAt(i + 1) === 123) i += 2;
      else i = readField(text, i + 1, q, triple, fields);
    } else {
      i++;
    }
  }
  return { end: n, terminated: false, fields };
}

/**
 * Reads one replacement field from just after its `{`; records the expression's span and returns
 * the offset after the closing `}` (or where the field breaks off).
 */
function readField(text: string, from: number, q: number, triple: boolean, fields: FieldSpan[]): number {
  const n = text.length;
  let depth = 0;
  let i = from;
  let exprEnd = -1;
  const done = (end: number): void => {
    fields.push({ start: from, end: exprEnd >= 0 ? exprEnd : end });
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isLineBreak(c) && !triple) {
      done(i);
      return i;
    }
    if (c === 39 || c === 34) {
      if (c === q && !triple && !closesOnThisLineBeforeBrace(text, i)) {
        done(i); // the f-string's own quote ends it here
        return i;
      }
      i = readString(text, i, false).end;
      continue;
    }
    if (isAsciiNameStart(c)) {
      let j = i + 1;
      while (j < n && isAsciiNameChar(text.charCodeAt(j))) j++;
      const qq = text.charCodeAt(j);
      if ((qq === 39 || qq === 34) && isStringPrefix(text.slice(i, j))) {
        const pre = text.slice(i, j).toLowerCase();
        i = readString(text, j, pre.includes("f") || pre.includes("t")).end;
      } else {
        i = j;
      }
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if ((c === 41 || c === 93) && depth > 0) depth--;
    else if (c === 125) {
      if (depth === 0) {
        done(i);
        return i + 1;
      }
      depth--;
    } else if (depth === 0) {
      if (c === 33 && text.charCodeAt(i + 1) !== 61 && exprEnd < 0) {
        exprEnd = i; // !conversion
      } else if (c === 58) {
        done(i); // :format spec, which may hold nested fields
        return readFormatSpec(text, i + 1, q, triple, fields);
      } else if (c === 61 && exprEnd < 0 && isDebugEquals(text, i)) {
        exprEnd = i;
      }
    }
    if (c === 35 && triple) {
      while (i < n && !isLineBreak(text.charCodeAt(i))) i++;
      continue;
    }
    i++;
  }
  done(n);
  return n;
}

function readFormatSpec(text: string, from: number, q: number, triple: boolean, fields: FieldSpan[]): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 125) return i + 1;
    if ((c === q || isLineBreak(c)) && !triple) return i;
    if (c === 123) {
      i = readField(text, i + 1, q, triple, fields);
      continue;
    }
    i++;
  }
  return n;
}

/** `=` of a self-documenting field (`{x=}`, `{x = !r}`), not `==`, `!=`, `<=`, `>=`, `:=`. */
function isDebugEquals(text: string, i: number): boolean {
  const prev = text.charCodeAt(i - 1);
  if (prev === 61 || prev === 33 || prev === 60 || prev === 62 || prev === 58) return false;
  let j = i + 1;
  if (text.charCodeAt(j) === 61) return false;
  while (text.charCodeAt(j) === 32) j++;
  const next = text.charCodeAt(j);
  return next === 125 || next === 33 || next === 58;
}

/**
 * Inside a field, the f-string's own quote starts a nested string under PEP 701 (3.12+) but ends
 * the f-string on older interpreters. Read it as nested when that string closes on the same line
 * and a `}` follows it there; otherwise as the end of the f-string.
 */
function closesOnThisLineBeforeBrace(text: string, quoteAt: number): boolean {
  const r = readString(text, quoteAt, false);
  if (!r.terminated) return false;
  for (let i = r.end; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isLineBreak(c)) return false;
    if (c === 125) return true;
  }
  return false;
}
