// The code-reading tools of SPEC §9 as the model sees them: names, descriptions and parameter
// schemas. tools.ts registers them beside the frame tools; they are served host-side
// (invocation/code-reading/ reads the project's files through a HostToolPort), never by the bridge,
// and offered only when the profile grants `read_code` — to a recovery always, to an AI block
// when its text speaks of code (SPEC §5.1: only the tools that can help; a one-line block about
// data keeps its request under the budget).

import { READ_CODE_PERMISSION } from "../defaults.js";
import { CODE_READING_LIMITS } from "../host-tool-defaults.js";

export const CODE_TOOL_NAMES = ["read_code", "search_code", "list_code_files"] as const;
export type CodeToolName = (typeof CODE_TOOL_NAMES)[number];

export { READ_CODE_PERMISSION };

export function isCodeTool(name: string): name is CodeToolName {
  return (CODE_TOOL_NAMES as readonly string[]).includes(name);
}

const CODE_WORDS =
  /\b(code|source|sources|files?|modules?|packages?|functions?|class(es)?|methods?|project|repo(sitory)?|scripts?|imports?|defin(ed|es|ition)s?|implement(ed|s|ation)?)\b|\.py\b|\b[A-Za-z_]\w*\.[A-Za-z_]\w*/i;

/** Whether an AI block's text speaks of code: a word such as file, module or function, a `.py`
 * name, or a dotted name (`helper.LIMIT`). */
export function speaksOfCode(text: string): boolean {
  return CODE_WORDS.test(text);
}

export const CODE_TOOL_DESCRIPTIONS: Record<CodeToolName, string> = {
  read_code: `Lines of a project file (at most ${CODE_READING_LIMITS.readLines}).`,
  search_code: "Project lines containing text (any case).",
  list_code_files: "Project source files.",
};

type Schema = Record<string, unknown>;

// Kept small (every request carries them, SPEC §12's request budget): bounds are the reader's
// (invocation/code-reading/), which clamps lines and refuses what it does not show.
export function codeToolParameters(name: CodeToolName): Schema {
  const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  });
  const str: Schema = { type: "string" };
  const int: Schema = { type: "integer" };
  switch (name) {
    case "read_code":
      return object({ path: str, start_line: int, end_line: int }, ["path"]);
    case "search_code":
      return object({ text: str, path: str }, ["text"]);
    case "list_code_files":
      return object({ path: str }, []);
  }
}
