// The fidelity corpus: real programs no one here wrote, each a few seconds under python3.
//   lib-test      the interpreter's own Lib/test files, copied into the project folder so that
//                 they are project code (checkpoints in every statement when a model is set);
//                 they still import test.support from the standard library.
//   command-line  standard-library command lines (-m doctest on copied modules, pydoc, dis, ...).
//   slow-pipe     a printer behind a slow reader and readers behind a slow writer, on real pipes.
//   package       a pure-Python package copied into the project and run by its command line.
//   process       what a program sees of its own process: hooks, signals, descriptors, tracers,
//                 debuggers, shipped code (process-corpus.ts).
// Each entry passes, deterministically, under plain python3 3.11, 3.12 and 3.13 here
// (`node --import tsx test/fidelity/run.ts --calibrate` checks that for an interpreter).
//
// Lib/test files are run as scripts (`python3 test_X.py -v`, the entry module is project code)
// unless they must be imported as test.test_X (LIB_TEST_MODULES). Left out, and why:
//   test_compile (5 s), test_weakref (6 s, gc timing), test_statistics (5 s): too slow for the
//     budget; test_exceptions and test_itertools stand for the heavy files.
//   As scripts, test_descr, test_enum and test_frame fail under 3.13 and test_unpack(_ex),
//     test_extcall, test_pprint, test_funcattrs and test_warnings under every version (their
//     doctests, reprs and messages name test.test_X); they run as modules instead.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Interpreter } from "./interpreter.js";
import { processPrograms } from "./process-corpus.js";
import type { Copy, Program } from "./program.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OWN_PROGRAMS = path.join(HERE, "programs");
const DIST_PACKAGES = "/usr/lib/python3/dist-packages";

/** Run as scripts, `python3 test_X.py -v` (a package: `python3 -m unittest -v test_X`). */
const LIB_TESTS = [
  "test_grammar",
  "test_scope",
  "test_exceptions",
  "test_raise",
  "test_with",
  "test_contextlib",
  "test_contextlib_async",
  "test_generators",
  "test_coroutines",
  "test_asyncgen",
  "test_genexps",
  "test_listcomps",
  "test_setcomps",
  "test_fstring",
  "test_named_expressions",
  "test_except_star",
  "test_exception_group",
  "test_traceback",
  "test_class",
  "test_super",
  "test_property",
  "test_functools",
  "test_itertools",
  "test_dict",
  "test_list",
  "test_set",
  "test_string",
  "test_keywordonlyarg",
  "test_decorators",
  "test_opcodes",
  "test_augassign",
  "test_richcmp",
  "test_int",
  "test_bool",
  "test_dataclasses",
  "test_textwrap",
  "test_sys_settrace",
  "test_global",
  "test_yield_from",
  "test_typing",
  "test_context",
  "test_positional_only_arg",
  "test_string_literals",
];

/**
 * Imported as test.test_X by `python3 -m unittest -v test.test_X`, from the project's own `test`
 * package (programs/test_package_init.py): their doctests, reprs and messages name test.test_X,
 * or (test_patma) their __main__ block is a pyperf benchmark.
 */
const LIB_TEST_MODULES = [
  "test_descr",
  "test_enum",
  "test_frame",
  "test_doctest",
  "test_unpack",
  "test_unpack_ex",
  "test_extcall",
  "test_pprint",
  "test_funcattrs",
  "test_warnings",
  "test_patma",
];

/** Files a Lib/test module reads from its own folder, and folders it expects there. */
const NEIGHBOURS: Record<string, { files?: string[]; folders?: string[] }> = {
  test_traceback: { files: ["levenshtein_examples.json"] }, // 3.12+
  test_doctest: { files: ["test_doctest.txt", "test_doctest2.txt", "test_doctest3.txt", "test_doctest4.txt"] }, // up to 3.12
  test_contextlib: { folders: ["data", "ziptestdata", "archivetestdata"] }, // TestChdir changes into them
};

/** Modules whose doctests `-m doctest` runs on a copy; none is imported by doctest itself, so the copy is what runs. */
const DOCTESTED = ["fractions", "statistics", "pickletools", "shlex", "base64"];

/** Where the corpus finds its files on this interpreter. */
interface Roots {
  stdlib: (rel: string) => string;
  libTest: (...candidates: string[]) => string | undefined;
}

function roots(interp: Interpreter): Roots {
  return {
    stdlib: (rel) => path.join(interp.stdlib, rel),
    libTest: (...candidates) => candidates.map((c) => path.join(interp.libTest, c)).find((p) => fs.existsSync(p)),
  };
}

/** A Lib/test module copied to `folder` in the project (file or package), or why it cannot be. */
function copyLibTest(interp: Interpreter, name: string, folder: string): { copies: Copy[]; isPackage: boolean } | string {
  const file = path.join(interp.libTest, `${name}.py`);
  const pkg = path.join(interp.libTest, name);
  const isPackage = !fs.existsSync(file);
  if (isPackage && !fs.existsSync(pkg)) return `${interp.libTest} has no ${name}`;
  const copies: Copy[] = [isPackage ? { from: pkg, to: path.join(folder, name) } : { from: file, to: path.join(folder, `${name}.py`) }];
  for (const neighbour of NEIGHBOURS[name]?.files ?? []) {
    const from = path.join(interp.libTest, neighbour);
    if (fs.existsSync(from)) copies.push({ from, to: path.join(folder, neighbour) });
  }
  return { copies, isPackage };
}

function libTest(interp: Interpreter, name: string, form: "script" | "module"): Program {
  const program: Program = { name, kind: "lib-test", copies: [], argv: [], folders: NEIGHBOURS[name]?.folders };
  const copied = copyLibTest(interp, name, form === "script" ? "" : "test");
  if (typeof copied === "string") return { ...program, unavailable: copied };
  program.copies = copied.copies;
  if (form === "script") {
    program.argv = copied.isPackage ? ["-m", "unittest", "-v", name] : [`${name}.py`, "-v"];
    return program;
  }
  program.copies.push({ from: path.join(OWN_PROGRAMS, "test_package_init.py"), to: "test/__init__.py" });
  // A package whose tests live in a module of its own name (3.13's test_doctest) runs that module.
  const inner = copied.isPackage && fs.existsSync(path.join(interp.libTest, name, `${name}.py`));
  program.argv = ["-m", "unittest", "-v", inner ? `test.${name}.${name}` : `test.${name}`];
  return program;
}

function libTests(interp: Interpreter): Program[] {
  const scripts = LIB_TESTS.map((name) => libTest(interp, name, "script"));
  scripts.find((p) => p.name === "test_scope")!.fast = true;
  const modules = LIB_TEST_MODULES.map((name) => libTest(interp, name, "module"));
  const asyncio = path.join(interp.libTest, "test_asyncio");
  const tasks: Program = {
    name: "test_asyncio.test_tasks",
    kind: "lib-test",
    copies: [{ from: asyncio, to: "test_asyncio" }],
    // All 913 tests take 16 s; these classes are the C and the pure-Python Task, and gather.
    argv: ["-m", "test_asyncio.test_tasks", "-v", "-k", "CTask_CFuture_Tests", "-k", "PyTask_PyFuture_Tests", "-k", "GatherTests", "-k", "RunCoroutineThreadsafeTests"],
  };
  if (!fs.existsSync(path.join(asyncio, "test_tasks.py"))) tasks.unavailable = `${asyncio} has no test_tasks.py`;
  return [...scripts, ...modules, tasks];
}

function commandLines(interp: Interpreter): Program[] {
  const r = roots(interp);
  const colorsys = { from: r.stdlib("colorsys.py"), to: "colorsys.py" };
  const json = r.libTest("test_zoneinfo/data/zoneinfo_data.json");
  const zip = r.libTest("zipdir.zip", "archivetestdata/zipdir.zip");
  const tar = r.libTest("testtar.tar", "archivetestdata/testtar.tar");
  const data = (from: string | undefined, to: string) => (from ? { copies: [{ from, to }] } : { copies: [], unavailable: `${interp.libTest} has no ${to}` });
  const cli = (name: string, argv: string[], more: Partial<Program> = {}): Program => ({ name, kind: "command-line", copies: [], argv, ...more });
  return [
    ...DOCTESTED.map((m) => cli(`doctest-${m}`, ["-m", "doctest", "-v", `${m}.py`], { copies: [{ from: r.stdlib(`${m}.py`), to: `${m}.py` }], fast: m === "fractions" })),
    cli("pydoc-json", ["-m", "pydoc", "json"]),
    cli("json-tool", ["-m", "json.tool", "zoneinfo_data.json"], { ...data(json, "zoneinfo_data.json"), fast: true }),
    cli("calendar-2026", ["-m", "calendar", "2026"], { fast: true }),
    cli("base64-encode", ["-m", "base64", "-e", "colorsys.py"], { copies: [colorsys] }),
    cli("ast-dump", ["-m", "ast", "colorsys.py"], { copies: [colorsys] }),
    cli("dis", ["-m", "dis", "colorsys.py"], { copies: [colorsys] }),
    cli("trace", ["-m", "trace", "--trace", "colorsys.py"], { copies: [colorsys] }),
    cli("py-compile", ["-m", "py_compile", "colorsys.py"], { copies: [colorsys] }),
    cli("zipfile-list", ["-m", "zipfile", "-l", "zipdir.zip"], data(zip, "zipdir.zip")),
    cli("tarfile-list", ["-m", "tarfile", "-v", "-l", "testtar.tar"], data(tar, "testtar.tar")),
    cli("pickletools", ["-m", "pickletools", "-a", "data.pickle"], {
      setup: "import pickle\nwith open('data.pickle', 'wb') as f:\n    pickle.dump({'a': [1, 2.5, 'x' * 3], 'b': (None, True, b'raw'), 'c': {frozenset({7})}}, f, protocol=4)\n",
    }),
    cli("timeit", ["-m", "timeit", "-n", "2000", "-r", "3", "sorted(range(100), key=str)"]),
    cli("this", ["-m", "this"]),
    cli("platform", ["-m", "platform"]),
    cli("site", ["-m", "site"]),
  ];
}

function slowPipes(interp: Interpreter): Program[] {
  const printer = { from: path.join(OWN_PROGRAMS, "printer.py"), to: "printer.py" };
  const reader = { from: path.join(OWN_PROGRAMS, "reader.py"), to: "reader.py" };
  const slowReader = { kind: "slow-reader", chunk: 4096, pauseMs: 1 } as const;
  const json = roots(interp).libTest("test_zoneinfo/data/zoneinfo_data.json");
  const pipe = (name: string, more: Partial<Program>): Program => ({ name, kind: "slow-pipe", copies: [], argv: [], ...more });
  return [
    pipe("slow-reader", { copies: [printer], argv: ["printer.py"], pipe: slowReader, fast: true }),
    pipe("slow-reader-u", { copies: [printer], argv: ["-u", "printer.py"], pipe: slowReader }),
    pipe("slow-reader-unbuffered-env", { copies: [printer], argv: ["printer.py"], env: { PYTHONUNBUFFERED: "1" }, pipe: slowReader }),
    pipe("tokenize-pipe", {
      copies: [{ from: path.join(interp.stdlib, "textwrap.py"), to: "textwrap.py" }],
      argv: ["-m", "tokenize", "textwrap.py"],
      pipe: slowReader,
      fast: true,
    }),
    pipe("slow-writer", {
      copies: [reader, { from: path.join(interp.stdlib, "_pydecimal.py"), to: "input.txt" }],
      argv: ["reader.py"],
      pipe: { kind: "slow-writer", file: "input.txt", chunk: 2048, pauseMs: 1 },
    }),
    pipe("slow-writer-json-tool", {
      copies: json ? [{ from: json, to: "input.json" }] : [],
      argv: ["-m", "json.tool"],
      pipe: { kind: "slow-writer", file: "input.json", chunk: 512, pauseMs: 2 },
      ...(json ? {} : { unavailable: `${interp.libTest} has no test_zoneinfo data` }),
    }),
  ];
}

/** Debian's pygments (pure Python) copied into the project, run on a small file. */
function packages(interp: Interpreter): Program[] {
  const pygments = path.join(DIST_PACKAGES, "pygments");
  const program: Program = {
    name: "pygments-html",
    kind: "package",
    copies: [
      { from: pygments, to: "pygments" },
      { from: path.join(interp.stdlib, "colorsys.py"), to: "colorsys.py" },
    ],
    argv: ["-m", "pygments", "-l", "python", "-f", "html", "colorsys.py"],
  };
  if (!fs.existsSync(pygments)) program.unavailable = `${pygments} is not installed`;
  return [program];
}

/** The whole corpus for `interp`, in the order it is reported. */
export function corpus(interp: Interpreter): Program[] {
  return [...libTests(interp), ...commandLines(interp), ...slowPipes(interp), ...packages(interp), ...processPrograms()];
}
