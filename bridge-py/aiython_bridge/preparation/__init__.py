"""Preparing sources to run (SPEC §4.1): from bytes to the code object the bridge runs, with the
preparation cache in between.

- prepare.py: the entry program's and a project module's code, from the cache when it holds an
  entry for the source, else built (checkpoints the bridge selects itself, or the host's plan)
  and stored; the one API the runner, the import hook (and worker processes) call;
- cache.py: the cache on disk: keys, entries, atomic writes, the size bound.

Nothing is imported here: importers name the module they use.
"""
