// npm run fidelity: real programs run three ways — python3, aiython without a model, aiython with
// a model at a dead address (recovery on, nothing failing) — and compared with python3's run
// (corpus.ts says what runs, normalise.ts what may vary). Exit status 0 only when nothing differs
// but what README's "Known differences" documents (documented.ts).
//   node --import tsx test/fidelity/run.ts [--python PATH]... [--only NAME[,NAME]] [--fast] [--keep DIR] [--calibrate]
//     --python PATH  an interpreter to compare against (its own Lib/test is copied; aiython gets --python PATH);
//                    repeated, each in turn (e.g. 3.11, 3.12 and 3.13), with a line per mode and version
//     --only NAME    just these corpus entries (repeatable, or comma-separated)
//     --fast         the small subset, one or two of each kind, well under a minute
//     --keep DIR     save each run's raw stdout, stderr, exit status and leftovers under DIR/NAME/
//     --calibrate    python3 against python3, to check that the corpus is deterministic and passes here
// Build the CLI first (`npm run build`): it measures bin/aiython as users run it.

import { parseArgs } from "node:util";
import { corpus } from "./corpus.js";
import { runFidelity, selectPrograms, isAccepted } from "./fidelity.js";
import { describeInterpreter } from "./interpreter.js";
import { modeLines, resultLines, totalLine } from "./report.js";
import { CALIBRATION_MODES, MODES } from "./run-mode.js";

const { values } = parseArgs({
  options: {
    python: { type: "string", multiple: true, default: [] },
    only: { type: "string", multiple: true, default: [] },
    fast: { type: "boolean", default: false },
    keep: { type: "string" },
    calibrate: { type: "boolean", default: false },
  },
});

async function measure(command: string, explicit: boolean): Promise<boolean> {
  const interp = describeInterpreter(command, explicit);
  const only = values.only.flatMap((names) => names.split(",")).filter(Boolean);
  const programs = selectPrograms(corpus(interp), { only, fast: values.fast });
  const results = await runFidelity({
    interp,
    programs,
    modes: values.calibrate ? CALIBRATION_MODES : MODES,
    keep: values.keep && values.python.length > 1 ? `${values.keep}/${interp.version}` : values.keep,
    onResult: (result) => {
      for (const line of resultLines(result)) console.log(line);
      if (values.calibrate && result.status === "compared" && result.baselineExit !== "0") {
        console.log(`fails      ${result.name}: exit status ${result.baselineExit} under python3 (not fit for the corpus here)`);
      }
    },
  });
  for (const line of modeLines(results, interp)) console.log(line);
  console.log(totalLine(results, interp));
  const calibrationFailed = values.calibrate && results.some((r) => r.status === "compared" && r.baselineExit !== "0");
  return results.every(isAccepted) && !calibrationFailed;
}

try {
  const commands: [string, boolean][] = values.python.length ? values.python.map((p) => [p, true]) : [["python3", false]];
  let accepted = true;
  for (const [command, explicit] of commands) accepted = (await measure(command, explicit)) && accepted;
  process.exitCode = accepted ? 0 : 1;
} catch (error) {
  console.error(`fidelity: ${(error as Error).message}`);
  process.exitCode = 2;
}
