"""The compiler's warnings held back while the bridge parses and compiles a source again (its
retry copies, its checkpointed code), since CPython's own compile of the source shows them once.

CPython's C code looks for the filters and the function that shows a warning in
`sys.modules["warnings"]`, or uses its own when that module is not imported. So the `warnings`
module held back is always the one in sys.modules while the block lasts: the program's own if it
has imported it, otherwise the bridge's, which is one of modules.PREPARATION_STDLIB (on 3.12 and
3.13 a bare start does not import it, so the program would find it in sys.modules otherwise).
"""

import sys

from aiython_bridge import modules

__all__ = ["held_back"]


class held_back:
    """`with held_back() as caught:` — the warnings raised in the block, recorded, none shown
    (`caught` is a list); `held_back(record=False)` ignores them instead."""

    def __init__(self, record=True):
        self._record = record
        self._visible = None
        self._catch = None

    def __enter__(self):
        module = sys.modules.get("warnings")
        if module is None:  # the bridge's own, in sys.modules for the block (modules.visible)
            self._visible = modules.visible()
            self._visible.__enter__()
        try:
            module = module or sys.modules.get("warnings") or modules.adopt("warnings")
            self._catch = module.catch_warnings(record=self._record)
            caught = self._catch.__enter__()
            module.simplefilter("always" if self._record else "ignore")
        except BaseException:
            self._leave()
            raise
        return caught

    def __exit__(self, *exc_info):
        try:
            self._catch.__exit__(*exc_info)
        finally:
            self._leave()
        return False

    def _leave(self):
        if self._visible is not None:
            self._visible.__exit__(None, None, None)
