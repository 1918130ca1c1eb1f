// Reading and parsing aiython.toml with smol-toml, imported lazily so a start-up without a file
// never loads it. A syntax error becomes `file:line:column: reason` — never the offending line,
// which could hold a secret (smol-toml's own message embeds a code excerpt, so it is not used).

import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.js";

/** The file's text, or a ConfigError saying why it cannot be read or is not UTF-8 (TOML is UTF-8, SPEC §7). */
export function readConfigText(file: string, displayName: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "read error";
    throw new ConfigError(`${displayName}: cannot read the file (${code}); check that it exists and is readable`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // Where, never what: the bytes around it could be part of a secret.
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, at).filter((byte) => byte === 0x0a).length + 1;
    const column = at - (bytes.lastIndexOf(0x0a, at - 1) + 1) + 1;
    throw new ConfigError(
      `${displayName}:${line}:${column}: not valid UTF-8 (byte 0x${bytes[at].toString(16).padStart(2, "0")}); TOML files are UTF-8: save the file in that encoding`,
    );
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i];
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    const decoder = new TextDecoder("utf-8", { fatal: true });
    try {
      decoder.decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return bytes.length - 1;
}

/** `exactNumbers`: integers come back as bigint, so that `1.0` (a float) stays apart from `1` (an integer). */
export async function parseTomlText(text: string, displayName: string, { exactNumbers = false } = {}): Promise<unknown> {
  const { parse, TomlError } = await import("smol-toml");
  try {
    return exactNumbers ? parse(text, { integersAsBigInt: true }) : parse(text);
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ConfigError(`${displayName}:${error.line}:${error.column}: invalid TOML: ${tomlReason(error.message)}`);
    }
    throw error;
  }
}

/** smol-toml's messages read "Invalid TOML document: REASON\n\nCODE EXCERPT"; keep REASON only. */
function tomlReason(message: string): string {
  const reason = message
    .replace(/^Invalid TOML document:\s*/, "")
    .split("\n")[0]
    .trim();
  return reason === "" ? "syntax error" : reason;
}
