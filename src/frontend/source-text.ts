// Python source bytes → text, as CPython reads them (PEP 263): a UTF-8 BOM or a coding cookie in
// the first two lines picks the encoding; the default is UTF-8. Newlines are kept as they are so
// that line and column numbers match the file.

const COOKIE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

export function decodeSource(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString("utf8");
  const head = bytes
    .subarray(0, 400)
    .toString("latin1")
    .split(/\r?\n|\r/, 2);
  for (const line of head) {
    const match = COOKIE.exec(line);
    if (match) {
      const label = match[1].toLowerCase().replace(/_/g, "-");
      // TextDecoder's "latin1" is windows-1252; Buffer's is ISO-8859-1, which is Python's latin-1.
      if (["latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1"].includes(label)) return bytes.toString("latin1");
      try {
        return new TextDecoder(label).decode(bytes);
      } catch {
        break; // an encoding Node does not know: read it as UTF-8, CPython will judge it
      }
    }
    if (!/^[ \t\f]*(#.*)?$/.test(line)) break;
  }
  return bytes.toString("utf8");
}
