"""`--memory-limit` (SPEC §9): the process's address space capped right before the program starts.

Loaded only by a run that asks for a limit (runner.start_program).
"""

import sys

from aiython_bridge import boot

__all__ = ["limit_memory"]


def limit_memory(megabytes):
    """The RLIMIT_AS soft limit set to `megabytes`, so an allocation past it raises MemoryError in
    the program as under `python3` with `ulimit -v`. What the bridge itself added to the process
    since the interpreter started (its modules, reader thread, channel) is not the program's and
    is added to the limit. The hard limit is kept; `resource` leaves sys.modules again unless the
    program could already see it."""
    had = "resource" in sys.modules
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    now, start = boot.address_space(), boot.START_ADDRESS_SPACE
    wanted = megabytes * 1024 * 1024 + (max(0, now - start) if now is not None and start is not None else 0)
    resource.setrlimit(resource.RLIMIT_AS, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))
    if not had:
        sys.modules.pop("resource", None)
