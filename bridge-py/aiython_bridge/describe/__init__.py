"""Safe, bounded descriptions of program objects (SPEC §5.1 related/frame objects, §5.2 handle
descriptors and `inspect`): the public face.

Nothing in this package runs program code: no ``repr``/``str``/``len`` of program objects, no
properties, no ``__getattr__``, no metaclass hooks. Builtins are recognised by exact ``type(x)``
checks or, for subclasses, by calling the builtin base's own C methods (``dict.items(d)``,
``list.__len__(xs)``), which ignore overrides. Instance state is read through the C getset that
owns ``__dict__`` and the member descriptors of ``__slots__``, found in the class namespaces,
never through attribute lookup. Type names are read through ``type``'s own getsets, so a
metaclass property cannot intercept them. One known exception: the text of a typing construct
in a dataclass field annotation (``list[Ticket]``) comes from its stdlib ``repr``.

Every description is bounded (items per container, total nodes, characters per string); the
bounds are in bounds.py.

Every reader of program state for a description lives in this package, so the no-hook rule
above can be checked in one folder, split by job: reading (type names, an object's own fields,
signatures), descriptors (handle descriptors and `inspect`), summary (request content's structural
summaries), content (request content: related objects, frame objects).
"""

from .bounds import (CHILD_STR_LIMIT, FIELDS_LIMIT, FRAME_OBJECTS_LIMIT, INLINE_ITEM_STR_LIMIT, INLINE_ITEMS,
                     INLINE_STR_LIMIT, INLINE_TOTAL_CHARS, INSPECT_CHAR_BUDGET, INSPECT_NODE_BUDGET, INT_TEXT_BITS,
                     LISTING_STR_LIMIT, PREVIEW_CHARS, RELATED_LIMIT, SAFE_INT, STR_VALUE_LIMIT)
from .content import UNBOUND, describe_names, frame_objects, frame_scopes, related_objects, statement_words
from .descriptors import descriptor, inspect_object
from .reading import annotation_text, function_signature, instance_fields, known_from_code, type_label, type_names
from .summary import summarize

__all__ = [
    "CHILD_STR_LIMIT", "FIELDS_LIMIT", "FRAME_OBJECTS_LIMIT", "INLINE_ITEM_STR_LIMIT", "INLINE_ITEMS",
    "INLINE_STR_LIMIT", "INLINE_TOTAL_CHARS", "INSPECT_CHAR_BUDGET", "INSPECT_NODE_BUDGET", "INT_TEXT_BITS",
    "LISTING_STR_LIMIT", "PREVIEW_CHARS", "RELATED_LIMIT", "SAFE_INT", "STR_VALUE_LIMIT", "UNBOUND",
    "annotation_text", "describe_names", "descriptor", "frame_objects", "frame_scopes", "function_signature",
    "inspect_object", "instance_fields", "known_from_code", "related_objects", "statement_words", "summarize",
    "type_label", "type_names",
]
