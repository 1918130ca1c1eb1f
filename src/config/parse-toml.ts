// Reading and parsing aiython.toml with smol-toml, imported lazily so a start-up without a file
// never loads it. A syntax error becomes `file:line:column: reason` — never the offending line,
// which could hold a secret (smol-toml's own message embeds a code excerpt, so it is not used).

import { readFileSync } from "node:fs";
import { ConfigError } from "../errors.js";

/** The file's text, or a ConfigError saying why it cannot be read. */
export function readConfigText(file: string, displayName: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "read error";
    throw new ConfigError(`${displayName}: cannot read the file (${code}); check that it exists and is readable`);
  }
}

export async function parseTomlText(text: string, displayName: string): Promise<unknown> {
  const { parse, TomlError } = await import("smol-toml");
  try {
    return parse(text);
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
