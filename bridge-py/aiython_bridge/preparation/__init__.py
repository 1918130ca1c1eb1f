"""Preparing sources to run (SPEC §4.1): from bytes to the code object the bridge runs, with the
preparation cache in between.

- prepare.py: the entry program's and a project module's code, from the cache when it holds an
  entry for the source, else built (checkpoints the bridge selects itself, or the host's plan)
  and stored; the one API the runner, the import hook (and worker processes) call;
- cache.py: the cache on disk: keys, entries, the size bound; cache_index.py its index (a
  source and an entry known by their stat, read once per process), cache_files.py its atomic
  writes and quiet file operations; collector.py pauses the garbage collector while preparing;
- program_code.py: a source and its plan → unbound code → bound code; compiler_warnings.py holds
  back the warnings of its second compile, code_constants.py the placeholders bound at the end;
- syntax_tree.py: what preparation (and recovery's checkpoint transform) uses of `ast`, over
  `_ast`'s classes: ast.py is imported only to unparse an annotation;
- import_hook.py: project modules, prepared as the entry program is;
- oracle.py: the compile oracle, CPython's judgement of what parses, for the host's plans.

Nothing is imported here: importers name the module they use.
"""
