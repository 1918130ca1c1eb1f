// The code-reading tools of SPEC §9, served by the host from the project's files (a HostToolPort
// for the tool loop). Each answers a bounded result with a `truncated` flag, or a tool error
// (`PathRefused`, `NotText`, `TooLarge`) that says what was wrong and what is allowed:
//   read_code {path, start_line?, end_line?} → {path, start_line, end_line, total_lines, text, truncated}
//   search_code {text, path?} → {matches: [{path, line, text}], files_searched, truncated} (any case)
//   list_code_files {path?} → {files: [{path, bytes}], truncated}
// Host-side on purpose: reading files needs nothing of the paused frame, costs the program's
// process nothing (its memory limit, its thread), and needs no round trip to the bridge.

import fs from "node:fs/promises";
import { CODE_READING_LIMITS as LIMITS } from "../../host-tool-defaults.js";
import type { FrameOpResult } from "../../bridge/protocol.js";
import { PathRefused, ProjectFiles } from "./project-files.js";
import { walkFiles } from "./walk.js";

const MAX_SEARCH_TEXT = 200;

class ToolFailure extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export class CodeReader {
  private readonly files: ProjectFiles;

  constructor(projectRoot: string, secretFiles: Iterable<string> = []) {
    this.files = new ProjectFiles(projectRoot, new Set(secretFiles));
  }

  async run(name: string, args: Record<string, unknown>): Promise<FrameOpResult> {
    try {
      switch (name) {
        case "read_code":
          return { ok: true, value: await this.read(args.path as string, args.start_line as number | undefined, args.end_line as number | undefined) };
        case "search_code":
          return { ok: true, value: await this.search(args.text as string, (args.path as string | undefined) ?? ".") };
        case "list_code_files":
          return { ok: true, value: await this.list((args.path as string | undefined) ?? ".") };
        default:
          return { ok: false, error: { type: "UnknownOperation", message: `no code tool ${JSON.stringify(name)}` } };
      }
    } catch (error) {
      if (error instanceof PathRefused) return { ok: false, error: { type: "PathRefused", message: error.message } };
      if (error instanceof ToolFailure) return { ok: false, error: { type: error.type, message: error.message } };
      throw error;
    }
  }

  private async text(real: string, given: string): Promise<string> {
    const stat = await fs.stat(real);
    if (stat.size > LIMITS.fileBytes)
      throw new ToolFailure("TooLarge", `${given} has ${stat.size} bytes, more than the code tools read (${LIMITS.fileBytes}); search_code finds lines in smaller files`);
    const bytes = await fs.readFile(real);
    if (bytes.subarray(0, 8192).includes(0)) throw new ToolFailure("NotText", `${given} is not a text file`);
    return bytes.toString("utf8");
  }

  private async read(given: string, start = 1, end?: number) {
    const real = await this.files.resolve(given, "file");
    const lines = splitLines(await this.text(real, given));
    const first = Math.min(Math.max(start, 1), Math.max(lines.length, 1));
    const wanted = Math.min(end ?? lines.length, lines.length, first + LIMITS.readLines - 1);
    let text = "";
    let last = first - 1;
    for (let i = first; i <= wanted; i++) {
      const next = lines[i - 1];
      if (Buffer.byteLength(text) + Buffer.byteLength(next) > LIMITS.readBytes) break;
      text += next;
      last = i;
    }
    const asked = Math.min(end ?? lines.length, lines.length);
    return { path: this.files.shown(real), start_line: first, end_line: last, total_lines: lines.length, text, truncated: last < asked };
  }

  private async search(needle: string, under: string) {
    if (needle.trim() === "") throw new ToolFailure("ValueError", "search_code needs some text to look for");
    if (needle.length > MAX_SEARCH_TEXT) throw new ToolFailure("ValueError", `search_code looks for at most ${MAX_SEARCH_TEXT} characters; search for a shorter piece of the line`);
    const start = await this.files.resolve(under, "folder");
    const wanted = needle.toLowerCase();
    const matches: { path: string; line: number; text: string }[] = [];
    let searched = 0;
    let bytes = 0;
    let truncated = false;
    const walk = walkFiles(this.files, start);
    for (let next = await walk.next(); ; next = await walk.next()) {
      if (next.done) {
        truncated ||= !next.value.complete;
        break;
      }
      const file = next.value;
      if (file.bytes > LIMITS.fileBytes) continue;
      if ((bytes += file.bytes) > LIMITS.searchBytes) {
        truncated = true;
        break;
      }
      const content = await fs.readFile(file.real).catch(() => null);
      if (!content || content.subarray(0, 8192).includes(0)) continue;
      searched += 1;
      const lines = splitLines(content.toString("utf8"));
      for (const [index, line] of lines.entries()) {
        if (!line.toLowerCase().includes(wanted)) continue;
        if (matches.length === LIMITS.searchMatches) {
          truncated = true;
          break;
        }
        const shown = line.replace(/\r?\n$/, "");
        matches.push({ path: this.files.shown(file.real), line: index + 1, text: shown.length > LIMITS.searchLineChars ? `${shown.slice(0, LIMITS.searchLineChars)}…` : shown });
      }
      if (truncated && matches.length === LIMITS.searchMatches) break;
    }
    return { matches, files_searched: searched, truncated };
  }

  private async list(under: string) {
    const start = await this.files.resolve(under, "folder");
    const files: { path: string; bytes: number }[] = [];
    let truncated = false;
    const walk = walkFiles(this.files, start);
    for (let next = await walk.next(); ; next = await walk.next()) {
      if (next.done) {
        truncated ||= !next.value.complete;
        break;
      }
      if (files.length === LIMITS.listEntries) {
        truncated = true;
        break;
      }
      files.push({ path: this.files.shown(next.value.real), bytes: next.value.bytes });
    }
    return { files, truncated };
  }
}

/** Lines with their line ends kept (the last may have none). */
function splitLines(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines;
}
