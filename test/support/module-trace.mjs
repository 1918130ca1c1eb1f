// Loaded with `node --import` (through NODE_OPTIONS) by tests that must show which of aiython's
// modules a run loads: every module URL the ES module loader resolves is appended, one a line,
// to the file named by AIYTHON_TEST_MODULE_TRACE.
import { register } from "node:module";

register("./module-trace-hooks.mjs", import.meta.url);
