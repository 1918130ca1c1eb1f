"""The program as it runs (SPEC §2, §4.1): what it sees of how it was started, and how it ends.

- runner.py: the program as `__main__` (prepared, started, its exit status and traceback text),
  with host_messages.py (loaded when first needed) asking the host for the entry's plan and
  telling it how the program ended;
- process_view.py: sys.argv, sys.orig_argv, sys.path[0] and `__main__`'s namespace, as python3's;
- source_bytes.py: the entry's bytes as CPython reads them before parsing (a .pyc, `-x`, the bytes it refuses),
  with coding_cookie.py reading a coding cookie;
- tracebacks.py: the bridge's frames hidden from an uncaught exception's traceback;
- public_module.py: `import aiython` in the program (a finder in sys.path_importer_cache); memory_limit.py: `--memory-limit`. Both
  are loaded only when used.

Nothing is imported here: importers name the module they use (this file runs at every start).
"""
