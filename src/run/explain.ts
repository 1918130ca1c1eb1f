// What `--explain` shows (SPEC §3.4), composed: the configuration summary, the interpreter only
// as the compile oracle and the checkpoint rule (no program runs, no model is called, nothing is
// written next to the program), the frontend's plan of the file, and the checkpoints the bridge
// selects on the program as it would run (the plan's rewritten source, SPEC §4.2), which it
// reports in the file's own positions. The bridge has the windows that compile as they stand as
// soon as the frontend knows them, and lists them while it waits for the plan, and the plan as
// rendered while the frontend types its blocks.

import path from "node:path";
import { CAPABILITY_NAMES } from "../capabilities/names.js";
import { configSummaryForExplain, loadConfig } from "../config/index.js";
import { InternalError } from "../errors.js";
import { analyzeSource, type Plan } from "../frontend/index.js";
import { BridgeProcess } from "../bridge/bridge-process.js";
import type { CheckpointInfo } from "../bridge/protocol.js";
import { chooseInterpreter } from "../bridge/interpreter.js";
import { bridgeDir } from "../bridge/start-bridge.js";
import { bridgeOracle, displayName, formatDiagnostics } from "./plan-source.js";
import { collectAfterStep } from "./explain-memory.js";

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
  | { kind: "plan"; plan: Plan; checkpoints: CheckpointInfo[]; python: string; config: ReturnType<typeof configSummaryForExplain> }
  | { kind: "diagnostics"; message: string };

export async function explainPlan(request: ExplainRequest): Promise<Explained> {
  // The interpreter starts at once: the configuration is read and the plan begins (scan, parse)
  // while it boots, and the oracle's first compile waits for its `hello`. A configuration error
  // is still reported before an interpreter that cannot be chosen.
  const configuring = loadConfig({
    scriptPath: request.file,
    cwd: process.cwd(),
    configFile: request.configFile,
    profile: request.profile,
    forceProfile: request.forceProfile,
    model: request.model,
    env: request.env,
  });
  configuring.catch(() => undefined);
  const bridge = await startOracle(request, configuring);
  try {
    const config = await configuring;
    const filename = path.resolve(request.file);
    const oracle = bridgeOracle(bridge);
    const checkpoints = { source: request.source, filename, entry: true };
    // The checkpoints are selected on the rewritten program alone: the bridge starts on the plan
    // as rendered while this process types its blocks, and that answer stands if the plan's
    // program turns out the same (it does unless the confirmation fell back).
    let early = null as { plan: Plan; selecting: ReturnType<BridgeProcess["request"]> } | null;
    const planning = analyzeSource({
      source: request.source,
      filename,
      displayName: displayName(filename),
      oracle: {
        check: async (items) => {
          await bridge.hello;
          return oracle.check(items);
        },
      },
      capabilityNames: CAPABILITY_NAMES,
      onCompiledWindows: (parts) => void bridge.request({ type: "checkpoints", ...checkpoints, plan: null, parts }),
      onRendered: (untyped) => {
        if (untyped.diagnostics.length > 0) return;
        early = { plan: untyped, selecting: bridge.request({ type: "checkpoints", ...checkpoints, plan: untyped }) };
        early.selecting.catch(() => undefined); // awaited below, or dropped with the bridge
      },
    });
    planning.catch(() => undefined); // a failed start is reported by `hello` below, first
    const python = await bridge.hello;
    const plan = await planning;
    collectAfterStep(request.source.length);
    if (plan.diagnostics.length > 0) return { kind: "diagnostics", message: formatDiagnostics(request.file, plan) };
    const selected = await (early && sameProgram(early.plan, plan) ? early.selecting : bridge.request({ type: "checkpoints", ...checkpoints, plan }));
    collectAfterStep(request.source.length);
    if (!selected.ok || !selected.value) throw new InternalError(`the bridge could not select the checkpoints: ${selected.ok ? "no answer" : selected.error.message}`);
    return { kind: "plan", plan, checkpoints: selected.value, python: python.version, config: configSummaryForExplain(config, { cwd: process.cwd() }) };
  } finally {
    bridge.close();
    await bridge.ended;
  }
}

async function startOracle(request: ExplainRequest, configuring: Promise<unknown>): Promise<BridgeProcess> {
  try {
    return new BridgeProcess(chooseInterpreter(request.python, request.env), bridgeDir(), { env: request.env, stdin: "ignore" });
  } catch (error) {
    await configuring;
    throw error;
  }
}

/** Whether two plans give the bridge the same program to select checkpoints on (recovery/rendering.py reads no more of a plan). */
function sameProgram(a: Plan, b: Plan): boolean {
  if (a.rewritten !== b.rewritten || a.runtimeName !== b.runtimeName || a.blocks.length !== b.blocks.length) return false;
  return a.blocks.every((x, i) => {
    const y = b.blocks[i];
    const [s, t] = [x.span, y.span];
    return (
      x.index === y.index &&
      x.kind === y.kind &&
      x.is_async === y.is_async &&
      s.line === t.line &&
      s.column === t.column &&
      s.end_line === t.end_line &&
      s.end_column === t.end_column
    );
  });
}
