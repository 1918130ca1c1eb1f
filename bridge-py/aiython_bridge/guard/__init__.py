"""The source guard (SPEC §9): while a model's tool runs on a thread, an audit hook refuses what
no tool may do there: writing, truncating, deleting or renaming the program's source (code
files, project modules, aiython.toml, `.aiython/`), starting processes, and, when the profile
does not grant `write_filesystem`, writing files at all.

The program's own code is never affected: the hook acts only on threads inside `watching()`,
which pauses/ops.py wraps around each frame operation. It is installed at the first operation, not
at start-up (audit hooks cannot be removed), and when no operation runs it costs one falsy test
per audit event (bench/guard.ts).

Split by job: hook.py (the hook and the per-thread watches), events.py (what each audit event
asks for), protected.py (which paths are the program's source).
"""

from .events import Refusal
from .hook import GuardUnavailable, Watch, watching

__all__ = ["GuardUnavailable", "Refusal", "Watch", "watching"]
