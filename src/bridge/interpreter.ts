// Which Python runs the program (SPEC §2): --python > AIYTHON_PYTHON > $VIRTUAL_ENV/bin/python >
// python3 on PATH. The version check happens in the bridge handshake (no extra process here).

import path from "node:path";

export interface InterpreterChoice {
  command: string;
  /** Where the choice came from, for messages. */
  source: "--python" | "AIYTHON_PYTHON" | "VIRTUAL_ENV" | "PATH";
}

export function chooseInterpreter(flag: string | undefined, env: NodeJS.ProcessEnv): InterpreterChoice {
  if (flag) return { command: flag, source: "--python" };
  if (env.AIYTHON_PYTHON) return { command: env.AIYTHON_PYTHON, source: "AIYTHON_PYTHON" };
  if (env.VIRTUAL_ENV) return { command: path.join(env.VIRTUAL_ENV, "bin", "python"), source: "VIRTUAL_ENV" };
  return { command: "python3", source: "PATH" };
}

export function describeChoice(choice: InterpreterChoice): string {
  return choice.source === "PATH" ? `'${choice.command}' (from PATH)` : `'${choice.command}' (from ${choice.source})`;
}
