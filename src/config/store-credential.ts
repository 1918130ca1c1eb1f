// Writing a key for `aiython setup --set-key` (SPEC §7): `.aiython/credentials.env` in the project
// root, the folder 0700 and the file 0600 (set explicitly: the umask must not widen them), one
// `NAME="value"` line per key, other lines kept; and `.aiython/` in the project's .gitignore so
// neither the key nor the journal is ever committed. The value is written nowhere else and never
// appears in a message.

import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "../errors.js";
import { CREDENTIALS_FILE, JOURNAL_DIR, JOURNAL_DIR_MODE, JOURNAL_FILE_MODE } from "../defaults.js";
import { parseDotenv } from "./dotenv.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Stores `value` under `name`; returns the file's path. */
export function storeCredential(projectRoot: string, name: string, value: string): string {
  if (!NAME.test(name)) throw new ConfigError(`the key's variable name must be letters, digits and _, not ${JSON.stringify(name)}`);
  if (/[\r\n]/.test(value)) throw new ConfigError("the key must be one line; paste it again without line breaks");
  const file = path.join(projectRoot, CREDENTIALS_FILE);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: JOURNAL_DIR_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    throw new ConfigError(`cannot store the key: ${JOURNAL_DIR} in ${projectRoot} is not a folder; remove or rename it, then run aiython setup --set-key again`);
  }
  fs.chmodSync(path.dirname(file), JOURNAL_DIR_MODE);
  const old = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  parseDotenv(old, CREDENTIALS_FILE); // a malformed file is named (by line, never by text) before it is touched
  const line = `${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  const kept = old.split("\n").filter((l) => l.trim() !== "" && !new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(l));
  const text = `${[...kept, line].join("\n")}\n`;
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text, { mode: JOURNAL_FILE_MODE });
  fs.chmodSync(temp, JOURNAL_FILE_MODE);
  fs.renameSync(temp, file);
  return file;
}

/** Adds `.aiython/` to the project's .gitignore unless a line already covers it; true when it did. */
export function ignoreAiythonFolder(projectRoot: string): boolean {
  const file = path.join(projectRoot, ".gitignore");
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const covered = text.split(/\r?\n/).some((l) => [JOURNAL_DIR, `${JOURNAL_DIR}/`, `/${JOURNAL_DIR}`, `/${JOURNAL_DIR}/`].includes(l.trim()));
  if (covered) return false;
  fs.writeFileSync(file, `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${JOURNAL_DIR}/\n`);
  return true;
}
