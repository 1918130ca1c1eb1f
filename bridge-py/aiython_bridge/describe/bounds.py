"""Every bound of a description (SPEC §5.1 request content, §5.2 descriptors and `inspect`), in one place."""

__all__ = [
    "CHILD_STR_LIMIT", "FIELDS_LIMIT", "FRAME_OBJECTS_LIMIT", "INLINE_ITEMS",
    "INLINE_ITEM_STR_LIMIT", "INLINE_STR_LIMIT", "INLINE_TOTAL_CHARS", "INSPECT_CHAR_BUDGET",
    "INSPECT_NODE_BUDGET", "INT_TEXT_BITS", "LISTING_STR_LIMIT", "PREVIEW_CHARS", "RELATED_LIMIT",
    "SAFE_INT", "STR_VALUE_LIMIT",
]

STR_VALUE_LIMIT = 4000  # SPEC §5.2: a descriptor carries str values up to this length
SAFE_INT = 2**53 - 1  # larger ints lose precision in the host's JSON.parse; sent as "text"
INT_TEXT_BITS = 256  # ints wider than this get only their bit length
CHILD_STR_LIMIT = 500  # inspect: str values of nested items
PREVIEW_CHARS = 200  # leading characters shown of a string too long for a value
INSPECT_NODE_BUDGET = 400  # inspect: total described nodes, whatever depth and limit
INSPECT_CHAR_BUDGET = 40_000  # inspect: total characters of string values
RELATED_LIMIT = 20  # related objects per request
FIELDS_LIMIT = 20  # keys / fields listed in a structural summary
INLINE_STR_LIMIT = 500  # SPEC §5.1: str inlined in related objects up to this length
INLINE_ITEMS = 20  # short lists / dicts inlined up to this many items
INLINE_ITEM_STR_LIMIT = 200
INLINE_TOTAL_CHARS = 2000
FRAME_OBJECTS_LIMIT = 40
LISTING_STR_LIMIT = 200  # frame listings: str values up to this length
