// What legitimately varies between two runs of the same program under python3 itself, and only
// that: timings, memory addresses, process ids. Nothing aiython adds may be normalised away, so
// every rule below is anchored on text CPython or the standard library prints. The project folder
// needs no rule: every mode of a program runs in the same folder, restored between runs.
// `run.ts --calibrate` (python3 against python3) is how a new rule earns its place.

interface Rule {
  /** What varies, for the reader of this file. */
  why: string;
  pattern: RegExp;
  replacement: string;
}

const RULES: Rule[] = [
  { why: "unittest's run time", pattern: /^(Ran \d+ tests? in )\d+\.\d+s$/gm, replacement: "$1<time>s" },
  { why: "timeit's result", pattern: /^(\d+ loops?, best of \d+: )[\d.]+ [num]?sec( per loop)$/gm, replacement: "$1<time>$2" },
  {
    why: "timeit's warning when one repeat was much slower than another (machine load)",
    pattern: /^:0: UserWarning: The test results are likely unreliable\..*\n( {2}warnings\.warn_explicit\(.*\n)?/gm,
    replacement: "",
  },
  {
    why: "test_int's skip when a huge int conversion ran too fast to measure (process_time under 1/64 s)",
    pattern: /(skipped '"slow" conversion took only )\d+(\.\d+)?(e-\d+)?( seconds\.')/g,
    replacement: "$1<time>$4",
  },
  { why: "object addresses in reprs (id() in hex)", pattern: /\b0x[0-9a-f]{9,16}\b/g, replacement: "0x<address>" },
  { why: "test.support.TESTFN holds the pid", pattern: /@test_\d+_tmp/g, replacement: "@test_<pid>_tmp" },
];

export function normalise(text: string): string {
  return RULES.reduce((out, rule) => out.replace(rule.pattern, rule.replacement), text);
}
