// `aiython --explain [--json] PATH` (SPEC §3.4): runs nothing and calls no model; it starts the
// interpreter only as the compile oracle, and writes nothing next to the program.

import fs from "node:fs";
import path from "node:path";
import { ExitStatus, UsageError } from "../../errors.js";
import { configSummaryForExplain, loadConfig } from "../../config/index.js";
import { analyzeSource, renderExplainJson, renderExplainText } from "../../frontend/index.js";
import { BridgeProcess } from "../../recovery/bridge/bridge-process.js";
import { chooseInterpreter } from "../../recovery/bridge/interpreter.js";
import { BRIDGE_DIR, type RunOutcome } from "../../run/run-program.js";
import { bridgeOracle, displayName, formatDiagnostics } from "../../run/plan-source.js";
import { decodeSource } from "../../frontend/source-text.js";
import { writeStdout } from "../stdout.js";

export interface ExplainCommand {
  file: string;
  json: boolean;
  python?: string;
  configFile?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  color: boolean;
  env: NodeJS.ProcessEnv;
}

export async function explainFile(command: ExplainCommand): Promise<RunOutcome> {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(command.file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === "EISDIR" ? `--explain needs a .py file, and '${command.file}' is a folder` : `can't open file '${path.resolve(command.file)}': ${code === "ENOENT" ? "No such file or directory" : (error as Error).message}`);
  }
  const source = decodeSource(bytes);
  const config = await loadConfig({
    scriptPath: command.file,
    cwd: process.cwd(),
    configFile: command.configFile,
    profile: command.profile,
    forceProfile: command.forceProfile,
    model: command.model,
    env: command.env,
  });
  const bridge = new BridgeProcess(chooseInterpreter(command.python, command.env), BRIDGE_DIR, { env: command.env, stdin: "ignore" });
  try {
    const python = await bridge.hello;
    const filename = path.resolve(command.file);
    const plan = await analyzeSource({
      source,
      filename,
      displayName: displayName(filename),
      oracle: bridgeOracle(bridge),
      entryModule: true,
      checkpoints: true,
    });
    if (plan.diagnostics.length > 0) {
      return { kind: "status", status: ExitStatus.config, message: formatDiagnostics(command.file, plan) };
    }
    const output = command.json
      ? renderExplainJson(plan, { file: command.file, python: python.version, config: configSummaryForExplain(config, { cwd: process.cwd() }) })
      : renderExplainText(plan, source, { color: command.color });
    await writeStdout(output.endsWith("\n") ? output : `${output}\n`);
    return { kind: "status", status: 0 };
  } finally {
    bridge.close();
    await bridge.ended;
  }
}
