// What `--explain` shows (SPEC §3.4), composed: the configuration summary, the interpreter only
// as the compile oracle (no program runs, no model is called, nothing is written next to the
// program), and the frontend's plan of the file with its checkpoints.

import path from "node:path";
import { CAPABILITY_NAMES } from "../capabilities/names.js";
import { configSummaryForExplain, loadConfig } from "../config/index.js";
import { analyzeSource, type Plan } from "../frontend/index.js";
import { BridgeProcess } from "../recovery/bridge/bridge-process.js";
import { chooseInterpreter } from "../recovery/bridge/interpreter.js";
import { BRIDGE_DIR } from "../recovery/bridge/start-bridge.js";
import { bridgeOracle, displayName, formatDiagnostics } from "./plan-source.js";

export interface ExplainRequest {
  file: string;
  source: string;
  python?: string;
  configFile?: string;
  profile?: string;
  forceProfile?: string;
  model?: string;
  env: NodeJS.ProcessEnv;
}

export type Explained =
  | { kind: "plan"; plan: Plan; python: string; config: ReturnType<typeof configSummaryForExplain> }
  | { kind: "diagnostics"; message: string };

export async function explainPlan(request: ExplainRequest): Promise<Explained> {
  const config = await loadConfig({
    scriptPath: request.file, cwd: process.cwd(), configFile: request.configFile,
    profile: request.profile, forceProfile: request.forceProfile, model: request.model, env: request.env,
  });
  const bridge = new BridgeProcess(chooseInterpreter(request.python, request.env), BRIDGE_DIR, { env: request.env, stdin: "ignore" });
  try {
    const python = await bridge.hello;
    const filename = path.resolve(request.file);
    const plan = await analyzeSource({
      source: request.source, filename, displayName: displayName(filename), oracle: bridgeOracle(bridge),
      entryModule: true, checkpoints: true, capabilityNames: CAPABILITY_NAMES,
    });
    if (plan.diagnostics.length > 0) return { kind: "diagnostics", message: formatDiagnostics(request.file, plan) };
    return { kind: "plan", plan, python: python.version, config: configSummaryForExplain(config, { cwd: process.cwd() }) };
  } finally {
    bridge.close();
    await bridge.ended;
  }
}
