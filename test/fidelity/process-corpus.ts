// The corpus's "process" programs: what a program sees of its own process, where aiython could
// show through (issue 34). Each is a script of test/fixtures/invisible/ copied into the project
// (helper.py beside it is a project module whose statements fail for their callers to handle, shapes.py one
// for inspect and dis to look at):
//   process-first-line   threads, signal handlers, the wakeup fd, hooks, tracers, finders, atexit
//   process-fork         os.fork() at the first line (3.12+ warns when the process has a thread)
//   process-signals-fds  the program's own wakeup fd, asyncio's and trio's signals, pass_fds
//                        children, os.closerange(3, …)
//   process-trio         trio's signal receiver and Ctrl-C (trio absent: says so)
//   process-quit-pdb     breakpoint() with stdin at its end: pdb quits, bdb.BdbQuit ends the program
//   process-ship-code    a main-script lambda cloudpickled to a plain python3 (cloudpickle absent: says so)
//   process-ship-pools   main-script functions in fork, spawn and forkserver pools, a worker's failure
//   process-marshal      marshal of a function's code object
//   process-tracers      sys.settrace and sys.setprofile over failures handled by callers
//   process-settrace-events, process-setprofile-events  every event of a trace function, and of
//                        a profile function (C calls included), over failures handled in many places
//   process-cprofile     cProfile's call counts
//   process-trace-*      -m trace --listfuncs and --trackcalls of a program importing project code
//   process-tool-*       -m trace (--trackcalls, --listfuncs, --count), -m cProfile and -m profile
//                        (-s calls) over failures handled by callers, project code imported first
//   process-pdb-step     pdb driven from stdin: step and next through a handled failure
//   process-pdb-where    pdb's where
//   process-monitoring   a sys.monitoring tool's events (3.12+; 3.11 says it has none)
//   process-recursion    RecursionError's "Previous line repeated N more times" (nothing below the program)
//   process-recursion-limit  how deep the program recurses, under its own limit too
//   process-inspect      inspect and dis of project code (shapes.py beside it)
//   process-inspect-details  python -m inspect -d of a project module
//   process-del-exit     __del__ raising SystemExit, and a cycle's __del__ after SystemExit (test_gc)
//   process-print-stack  traceback.print_stack() from a function and from module level
//   process-worker-errors  a thread's uncaught error, a caught one printed, a pool worker's

import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Program } from "./program.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "invisible");

function script(name: string, file: string, more: Partial<Program> = {}, files: string[] = []): Program {
  const copies = [file, "helper.py", "shapes.py", ...files].map((f) => ({ from: path.join(FIXTURES, f), to: f }));
  return { name, kind: "process", copies, argv: [file], ...more };
}

/** `tool_cli.py TOOL ARGS… main_failures.py`: a standard-library tool's command line, project code imported first. */
function tool(name: string, ...argv: string[]): Program {
  return script(name, "tool_cli.py", { argv: ["tool_cli.py", ...argv, "main_failures.py"] }, ["main_failures.py"]);
}

/** `file` under pdb, its commands read from `commands` on stdin. */
function debugged(name: string, file: string, commands: string): Program {
  return script(name, file, { pipe: { kind: "slow-writer", file: commands, chunk: 4096, pauseMs: 1 } }, [commands]);
}

export function processPrograms(): Program[] {
  return [
    script("process-first-line", "first_line.py"),
    script("process-fork", "forks.py"),
    script("process-signals-fds", "signals_fds.py", { fast: true }),
    script("process-trio", "trio_signals.py"),
    script("process-quit-pdb", "quit_pdb.py"),
    script("process-ship-code", "ship_code.py"),
    script("process-ship-pools", "ship_spawn.py"),
    script("process-marshal", "marshal_code.py"),
    script("process-tracers", "tracers.py"),
    script("process-settrace-events", "trace_events.py"),
    script("process-setprofile-events", "trace_events.py", { argv: ["trace_events.py", "profile"] }),
    script("process-cprofile", "profiled.py"),
    script("process-trace-listfuncs", "traced.py", { argv: ["-m", "trace", "--listfuncs", "traced.py"] }),
    script("process-trace-trackcalls", "traced.py", { argv: ["-m", "trace", "--trackcalls", "traced.py"] }),
    tool("process-tool-trackcalls", "trace", "--trackcalls"),
    tool("process-tool-listfuncs", "trace", "--listfuncs"),
    tool("process-tool-count", "trace", "--count", "--missing", "--summary", "-C", "cover"),
    tool("process-tool-cprofile", "cProfile", "-s", "calls"),
    tool("process-tool-profile", "profile", "-s", "calls"),
    debugged("process-pdb-step", "pdb_steps.py", "pdb_steps.txt"),
    debugged("process-pdb-where", "pdb_where.py", "pdb_where.txt"),
    script("process-monitoring", "monitored.py"),
    script("process-recursion", "recursion.py"),
    script("process-recursion-limit", "recursion_limit.py"),
    script("process-print-stack", "print_stack.py"),
    script("process-del-exit", "del_system_exit.py"),
    script("process-inspect", "inspected.py"),
    script("process-inspect-details", "shapes.py", { argv: ["-m", "inspect", "-d", "shapes"] }),
    script("process-worker-errors", "worker_errors.py"),
  ];
}
