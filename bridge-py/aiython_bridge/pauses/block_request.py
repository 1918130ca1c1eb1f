"""What the host is told of an AI block's pause (SPEC §5.1): the `pause` request's content (the
block's statement, location, target, expected type and its JSON schema, code context, related and
frame objects, hints and directive), and that expected type, read from the block's annotation in
the paused frame. A recovery pause's request is recovery/pause.py's.
"""

from aiython_bridge import contracts
from aiython_bridge.errors import AIError, UnsupportedAnnotation
from aiython_bridge.paths import display_path
from aiython_bridge.pauses.ops import NO_TYPE

__all__ = ["block_request", "expected_type"]


def expected_type(info, frame):
    """(the type the block's value must have, its JSON schema): (NO_TYPE, None) for a block without
    an annotation; AIError for an annotation contracts/ cannot check."""
    text = info.get("output_type")
    if not text:
        return NO_TYPE, None
    try:
        return contracts.resolve_with_schema(text, frame.f_globals, frame.f_locals)
    except UnsupportedAnnotation as exc:
        raise AIError("%s: the annotation %s of this block cannot be used: %s" % (info["id"], text, exc)) from None


def block_request(pause):
    """The `pause` request of an AI block's pause (SPEC §5.1)."""
    info = pause.info
    inv = pause.invocation
    span = info["span"]
    related, frame_objects = inv.request_objects(info["statement"])
    return {
        "mode": "syntax",
        "block_id": info["id"],
        "statement": info["statement"],
        "location": {
            # Project-relative: stable across checkouts (journal keys) and no folder layout sent.
            "file": display_path(inv.frame.f_code.co_filename, inv.project_root),
            "line": span["line"], "column": span["column"],
            "end_line": span["end_line"], "end_column": span["end_column"],
            "function": info.get("function"),
        },
        "target": pause.target,
        "output_type": contracts.type_repr(pause.expected) if pause.expected is not NO_TYPE else None,
        "output_schema": pause.schema,
        "requires_result": bool(info.get("requires_result")),
        "code_context": inv.code_context(),
        "related_objects": related,
        "frame_objects": frame_objects,
        "hints": {"prompts": list((info.get("directive") or {}).get("prompts") or [])},
        "directive": info.get("directive") or {},
    }
