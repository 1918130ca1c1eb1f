"""The handles of an invocation (SPEC §5.2): ``Handles`` is a base of Invocation (invocation.py).

It holds the handle table (``object-N`` by identity, strong references kept so ids are never
reused: a handle names one object for the whole invocation) and the values of earlier calls by
result id (``evaluate`` and ``get_binding`` with a ``result_id``, which a later call or an outcome
references), until the invocation closes.
"""

from __future__ import annotations

from .. import describe
from .tool_error import ToolError

__all__ = ["Handles"]


class Handles:
    """The handle table and remembered values of an Invocation (see the module docstring)."""

    def __init__(self):
        self._handle_by_id: dict[int, str] = {}
        self._objects: dict[str, object] = {}
        self._results: dict[str, object] = {}

    def handle(self, obj) -> str:
        """The ``object-N`` handle of ``obj``, assigned on first sight, stable by identity."""
        handle = self._handle_by_id.get(id(obj))
        if handle is None:
            handle = f"object-{len(self._objects) + 1}"
            self._handle_by_id[id(obj)] = handle
            self._objects[handle] = obj
        return handle

    def descriptor(self, obj) -> dict:
        return describe.descriptor(obj, self.handle(obj))

    def lookup_handle(self, handle: str) -> object:
        if type(handle) is str and handle in self._objects:
            return self._objects[handle]
        known = f"object-1 … object-{len(self._objects)}" if self._objects else "none yet"
        raise ToolError("UnknownHandle", f"no object {handle!r} in this invocation (known: {known}); "
                        "use a handle from the request or from evaluate, get_binding, inspect or frames")

    def remember(self, result_id: str, value) -> None:
        self._results[result_id] = value

    def recall(self, result_id: str) -> object:
        try:
            return self._results[result_id]
        except (KeyError, TypeError):
            raise ToolError("UnknownResult", f"no value was produced under {result_id!r}; reference the "
                            "result_id or tool-call id of an earlier evaluate or get_binding call") from None

    def forget_handles(self) -> None:
        """Drop every object and value the table holds."""
        self._handle_by_id.clear()
        self._objects.clear()
        self._results.clear()
