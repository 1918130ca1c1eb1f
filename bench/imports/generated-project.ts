// bench/imports: a generated project of ordinary Python modules (no AI blocks), each about 300
// lines of functions, a class, loops, branches and try statements, so that every module has many
// checkpoints to select and compile. `app/m00.py` … `app/mNN.py` import their predecessor;
// `main.py` imports them all, calls each module's run() and prints the sum.

import fs from "node:fs";
import path from "node:path";

const FUNCTIONS_PER_MODULE = 20;

function moduleSource(index: number): string {
  const lines: string[] = [
    `"""Generated module ${index} for bench/imports: ordinary code, no AI blocks."""`,
    "import math",
    "from collections import defaultdict",
    index > 0 ? `from app import m${pad(index - 1)} as previous` : "previous = None",
    "",
    `CONSTANT = ${index}`,
    "",
    "",
    "class Record:",
    "    def __init__(self, key, value):",
    "        self.key = key",
    "        self.value = value",
    "",
    "    def score(self):",
    "        total = 0",
    "        for ch in self.key:",
    "            total += ord(ch) * self.value",
    "        return total % 97",
    "",
    "    def grouped(self, items):",
    "        groups = defaultdict(list)",
    "        for item in items:",
    "            groups[item % 5].append(item)",
    "        return {key: len(value) for key, value in groups.items()}",
    "",
  ];
  for (let k = 0; k < FUNCTIONS_PER_MODULE; k++) {
    lines.push(
      "",
      `def step_${k}(values):`,
      `    """Step ${k} of module ${index}."""`,
      "    result = []",
      "    for value in values:",
      `        if value % 3 == ${k % 3}:`,
      `            result.append(value * ${k + 2})`,
      "        elif value % 3 == 1:",
      "            result.append(int(math.sqrt(value + CONSTANT)))",
      "        else:",
      "            try:",
      "                result.append(value // (value - 2))",
      "            except ZeroDivisionError:",
      "                result.append(0)",
      "    return result",
    );
  }
  lines.push(
    "",
    "",
    `STEPS = [${Array.from({ length: FUNCTIONS_PER_MODULE }, (_, k) => `step_${k}`).join(", ")}]`,
    "",
    "",
    "def run():",
    "    data = list(range(40))",
    "    total = sum(sum(step(data)) for step in STEPS)",
    `    record = Record("module-${index}", CONSTANT + 1)`,
    "    total += record.score() + sum(record.grouped(data).values())",
    "    if previous is not None:",
    "        total += previous.CONSTANT",
    "    return total",
    "",
  );
  return lines.join("\n");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Writes the project into `dir`; returns the number of project modules main.py imports. */
export function writeGeneratedProject(dir: string, modules: number): number {
  fs.mkdirSync(path.join(dir, "app"), { recursive: true });
  fs.writeFileSync(path.join(dir, "app", "__init__.py"), '"""The generated package."""\n');
  for (let i = 0; i < modules; i++) fs.writeFileSync(path.join(dir, "app", `m${pad(i)}.py`), moduleSource(i));
  const imports = Array.from({ length: modules }, (_, i) => `from app import m${pad(i)}`);
  const main = [...imports, "", `MODULES = [${Array.from({ length: modules }, (_, i) => `m${pad(i)}`).join(", ")}]`, "print(sum(module.run() for module in MODULES))", ""];
  fs.writeFileSync(path.join(dir, "main.py"), main.join("\n"));
  return modules + 1; // the package's __init__ too
}

/** Lines of one generated module (for the report). */
export function moduleLines(): number {
  return moduleSource(1).split("\n").length;
}
