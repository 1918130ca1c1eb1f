"""The source guard (SPEC §9): while a model's tool runs, and wherever what it set going runs
later, an audit hook refuses what no tool may do: changing the program's source (code files,
project modules, aiython.toml, `.aiython/`, `__pycache__`, `.pth` files, site-packages),
starting processes, ending or breaking the run (its process, fds 0–2, the control channel, a
signal to it), reaching past the guard (ctypes, gc's views, the bridge's own functions), and,
when the profile does not grant `write_filesystem`, writing files at all.

The program's own code is never affected: the hook acts for threads inside `watching()`, which
pauses/ops.py wraps around each frame operation, and for code a tool made, wherever it runs. It is
installed at the first operation, not at start-up (audit hooks cannot be removed), and until
then costs nothing; after it, one dict lookup per audit event of the program (bench/guard.ts).

Split by job: hook.py (the hook, the watches, whose code an event comes from), events.py (what
each file, process and signal event asks for), protected.py (which paths are the program's
source), reach.py (what would escape the guard, and what a tool sets going), patches.py
(stand-ins for what has no audit event: os._exit, closing descriptors, multiprocessing's spawn,
atexit), refusal.py (a refused action).
"""

from .hook import GuardUnavailable, Watch, watched, watching
from .refusal import Refusal

__all__ = ["GuardUnavailable", "Refusal", "Watch", "watched", "watching"]
