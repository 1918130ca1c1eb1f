// The code-reading tools of SPEC §9 as the model sees them: names, descriptions and parameter
// schemas. tools.ts registers them beside the frame tools; they are served host-side
// (recovery/code-reading/ reads the project's files through a HostToolPort), never by the bridge,
// and offered only when the profile grants `read_code`.

import { CODE_READING_LIMITS, READ_CODE_PERMISSION } from "../../defaults.js";

export const CODE_TOOL_NAMES = ["read_code", "search_code", "list_code_files"] as const;
export type CodeToolName = (typeof CODE_TOOL_NAMES)[number];

export { READ_CODE_PERMISSION };

export function isCodeTool(name: string): name is CodeToolName {
  return (CODE_TOOL_NAMES as readonly string[]).includes(name);
}

export const CODE_TOOL_DESCRIPTIONS: Record<CodeToolName, string> = {
  read_code: `Lines of a project file (path relative to the project; at most ${CODE_READING_LIMITS.readLines} lines).`,
  search_code: "Project lines containing text (plain text, not a regex).",
  list_code_files: "Project source files, optionally under a folder.",
};

type Schema = Record<string, unknown>;
const line: Schema = { type: "integer", minimum: 1 };
const relativePath: Schema = { type: "string", minLength: 1, maxLength: 1000 };

export function codeToolParameters(name: CodeToolName): Schema {
  const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  });
  switch (name) {
    case "read_code":
      return object({ path: relativePath, start_line: line, end_line: line }, ["path"]);
    case "search_code":
      return object({ text: { type: "string", minLength: 1, maxLength: 200 }, path: relativePath, case_sensitive: { type: "boolean" } }, ["text"]);
    case "list_code_files":
      return object({ path: relativePath }, []);
  }
}
