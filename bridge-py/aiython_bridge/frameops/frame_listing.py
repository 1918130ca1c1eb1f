"""The frames of an invocation (SPEC §5.2): the `frames` and `get_frame_code` tools.

FrameListing is a base of Invocation (invocation.py): from the recovery traceback, or the stack
above the active frame, it lists the frames the model may see (the active and origin frames and
the project's own, innermost kept) with their locals, and shows the source around any of them.
It reads ``frame``, ``line``, ``origin_frame``, ``origin_line``, ``traceback``, ``project_root``,
``handle`` and ``lookup_scopes`` of the Invocation; which files are the project's is paths.py's rule.
"""

from __future__ import annotations

from .. import describe, paths
from ..paths import display_path
from .context import code_context
from .tool_error import ToolError

__all__ = ["FRAMES_LIMIT", "FRAME_LOCALS_LIMIT", "FrameListing"]

FRAMES_LIMIT = 8  # frames(): innermost project frames kept
FRAME_LOCALS_LIMIT = 20  # frames(): locals listed per frame


class FrameListing:
    """The frame tools of an Invocation (see the module docstring)."""

    def get_frame_code(self, which: str = "active") -> dict:
        if which == "active":
            frame, line = self.frame, self.line
        elif which == "origin":
            if self.origin_frame is None:
                raise ToolError("ValueError", "there is no origin frame: it exists in recovery mode only; "
                                "use frame='active'")
            frame, line = self.origin_frame, self.origin_line
        else:
            raise ToolError("ValueError", f"frame must be 'active' or 'origin', got {which!r}")
        return code_context(frame, line, project_root=self.project_root)

    def frames(self) -> dict:
        out = []
        for frame, line in self._frame_chain():
            scopes = self.lookup_scopes() if frame is self.frame else None
            out.append({
                "function": frame.f_code.co_qualname,
                "file": display_path(frame.f_code.co_filename, self.project_root),
                "line": line,
                "active": frame is self.frame,
                "origin": frame is self.origin_frame,
                "locals": describe.frame_objects(frame, handle_of=self.handle, limit=FRAME_LOCALS_LIMIT,
                                                 scopes=scopes),
            })
        return {"frames": out}

    def _frame_chain(self) -> list[tuple[object, int]]:
        chain: list[tuple[object, int]] = []
        if self.traceback is not None:
            tb = self.traceback
            while tb is not None:
                chain.append((tb.tb_frame, self.line if tb.tb_frame is self.frame else tb.tb_lineno))
                tb = tb.tb_next
        else:
            # Recovery without a traceback: origin up to the active frame. Syntax mode: the
            # whole stack above the active frame.
            frame = self.origin_frame if self.origin_frame is not None else self.frame
            while frame is not None:
                if frame is self.frame:
                    chain.append((frame, self.line))
                    if self.origin_frame is not None:
                        break
                elif frame is self.origin_frame:
                    chain.append((frame, self.origin_line))
                else:
                    chain.append((frame, frame.f_lineno))
                frame = frame.f_back
            chain.reverse()
            if self.origin_frame is not None and all(f is not self.frame for f, _ in chain):
                chain = [(self.frame, self.line), (self.origin_frame, self.origin_line)]
        keep = [(f, line) for f, line in chain
                if f is self.frame or f is self.origin_frame or self.is_project_file(f.f_code.co_filename)]
        return keep[-FRAMES_LIMIT:]

    def is_project_file(self, filename: str) -> bool:
        return paths.kind(filename, self.project_root) == paths.PROJECT
