// A generated Python program of a given size with 20 natural-language lines (or as many as asked), for the frontend
// benchmark: top-level classes and functions like a real module (docstrings, loops, try/with,
// comprehensions, f-strings, annotations), and the natural language in the positions users
// write it: assignment right-hand sides, statements, call arguments, conditions, return values,
// a module-level line and one inside an `async def`.

const UNIT = (n: number): string => `class Widget${n}:
    """A widget number ${n}, with documentation that spans
    more than one line, as real modules have."""

    def __init__(self, name: str, size: int = ${n % 97}) -> None:
        self.name = name
        self.size = size
        self.items: list[int] = [i * ${n % 13} for i in range(size)]

    def total(self) -> int:
        result = 0
        for item in self.items:
            if item % 3 == 0:
                result += item
            elif item % 5 == 0:
                result -= item
            else:
                continue
        return result

    def describe(self) -> str:
        return f"{self.name}: {self.total()} ({len(self.items)} items)"


def helper_${n}(values: dict[str, int], limit: int = 10) -> list[str]:
    """Return the keys whose value is below the limit."""
    out = []
    try:
        for key, value in sorted(values.items()):
            if value < limit and not key.startswith("_"):
                out.append(key.upper())
    except (KeyError, ValueError) as error:
        print("failed", error)
    with open(__file__) as handle:
        first = handle.readline()
    return out


`;

/** Where each natural-language line goes: a line of UNIT to replace, and its replacement. */
const NATURAL: [string, string][] = [
  ["        result = 0", "        result = the sum of every item divisible by three"],
  ['        print("failed", error)', "        explain the error to the user in one friendly sentence"],
  ["                out.append(key.upper())", "                out.append(a cleaned-up version of the key)"],
  ["            if item % 3 == 0:", "            if the item looks like an outlier:"],
  ['        return f"{self.name}: {self.total()} ({len(self.items)} items)"', "        return a friendly one-line description of the widget"],
];

export function buildBigProgram(size: number, natural = 20): { source: string; naturalLines: number[] } {
  const parts: string[] = ['"""A generated module for the frontend benchmark."""\nimport asyncio\n\n\n'];
  let length = parts[0].length;
  let n = 0;
  const units: string[] = [];
  while (length < size) {
    const unit = UNIT(n++);
    units.push(unit);
    length += unit.length;
  }
  // Natural-language lines per unit: spread evenly, up to one of each kind (NATURAL) in a unit.
  const naturalAt = new Map<number, number>();
  const count = Math.min(natural, units.length * NATURAL.length + 2);
  for (let k = 0; k < count - 2; k++) {
    const at = Math.floor(((k + 0.5) * units.length) / (count - 2));
    naturalAt.set(at, (naturalAt.get(at) ?? 0) + 1);
  }
  let kind = 0;
  for (let i = 0; i < units.length; i++) {
    let unit = units[i];
    for (let j = 0; j < (naturalAt.get(i) ?? 0); j++) {
      const [from, to] = NATURAL[kind++ % NATURAL.length];
      unit = unit.replace(from, to);
    }
    parts.push(unit);
    if (i === Math.floor(units.length / 3)) parts.push("summary = summarize the widgets defined so far in one sentence\n\n\n");
    if (i === Math.floor((2 * units.length) / 3)) {
      parts.push("async def fetch_report(city: str) -> str:\n    report = await download today's report for the city\n    return report\n\n\n");
    }
  }
  const source = parts.join("");
  const lines = source.split("\n");
  const naturalLines: number[] = [];
  const markers = [...NATURAL.map(([, to]) => to.trim()), "summary = summarize the widgets", "report = await download today's report"];
  lines.forEach((line, i) => {
    if (markers.some((m) => line.trim().startsWith(m))) naturalLines.push(i + 1);
  });
  return { source, naturalLines };
}
