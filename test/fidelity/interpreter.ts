// The interpreter a fidelity run compares against: how to call it (as given, so `python3` goes
// through PATH exactly as a user's shell would), and where its own files are — the standard
// library and its `Lib/test`, which the corpus copies from, so each interpreter is measured on
// its own tests.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface Interpreter {
  /** The command as given (`python3`, or the --python path). */
  command: string;
  /** True when given by --python: aiython then gets the same --python. */
  explicit: boolean;
  executable: string;
  version: string;
  /** The standard library folder (`Lib/`). */
  stdlib: string;
  /** `Lib/test`, the interpreter's own test suite. */
  libTest: string;
}

const PROBE = "import json, sys, sysconfig; print(json.dumps([sys.executable, sys.version.split()[0], sysconfig.get_paths()['stdlib']]))";

/** Describes `command`, or throws an error that says what is missing. */
export function describeInterpreter(command: string, explicit: boolean): Interpreter {
  const probe = spawnSync(command, ["-c", PROBE], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new Error(`cannot run ${command}: ${probe.error?.message ?? probe.stderr.trim()}`);
  }
  const [executable, version, stdlib] = JSON.parse(probe.stdout) as [string, string, string];
  const libTest = path.join(stdlib, "test");
  if (!fs.existsSync(path.join(libTest, "support"))) {
    throw new Error(`${executable} has no test suite (${libTest}/support is missing); Debian's python3 needs libpython3-testsuite, a pyenv or python.org build has it`);
  }
  return { command, explicit, executable, version, stdlib, libTest };
}
