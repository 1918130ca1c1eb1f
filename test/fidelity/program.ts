// What a corpus entry is: the files that make its project folder, the command line it runs
// (after `python3` / `aiython`), and how its stdin and stdout are connected.

export type ProgramKind = "lib-test" | "command-line" | "slow-pipe" | "package" | "process";

/** How the program's stdio is wired; by default stdin is /dev/null and stdout goes to the harness. */
export type PipeSetup =
  /** stdout on a real OS pipe whose reader takes `chunk` bytes, then pauses `pauseMs`. */
  | { kind: "slow-reader"; chunk: number; pauseMs: number }
  /** stdin on a real OS pipe that receives the project file `file` `chunk` bytes at a time. */
  | { kind: "slow-writer"; file: string; chunk: number; pauseMs: number };

export interface Copy {
  /** Absolute path of a file or folder (folders are copied without `__pycache__`). */
  from: string;
  /** Path inside the project folder. */
  to: string;
}

export interface Program {
  name: string;
  kind: ProgramKind;
  copies: Copy[];
  /** Empty folders the program expects to find. */
  folders?: string[];
  /** Python code run once in the pristine project by the interpreter under test (archives, pickles). */
  setup?: string;
  /** Arguments after the interpreter (or after `aiython [--python PATH]`). */
  argv: string[];
  /** Added to the environment of every mode. */
  env?: Record<string, string>;
  pipe?: PipeSetup;
  /** In the --fast subset. */
  fast?: boolean;
  /** Set when this interpreter lacks what the entry needs: it is listed as skipped, not run. */
  unavailable?: string;
}
