"""Safe, bounded descriptions of program objects (SPEC §5.1 related/frame objects, §5.2 handle
descriptors and `inspect`).

Nothing here runs program code: no ``repr``/``str``/``len`` of program objects, no properties,
no ``__getattr__``, no metaclass hooks. Builtins are recognised by exact ``type(x)`` checks or,
for subclasses, by calling the builtin base's own C methods (``dict.items(d)``,
``list.__len__(xs)``), which ignore overrides. Instance state is read through the C getset that
owns ``__dict__`` and the member descriptors of ``__slots__``, found in the class namespaces,
never through attribute lookup. Type names are read through ``type``'s own getsets, so a
metaclass property cannot intercept them. One known exception: the text of a typing construct
in a dataclass field annotation (``list[Ticket]``) comes from its stdlib ``repr``.

Every description is bounded (items per container, total nodes, characters per string).

Over 400 lines: every reader of program state lives in this one file so the no-hook rule above
can be checked in one place.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing is not imported at run time: the bridge must import cheaply
if TYPE_CHECKING:
    from typing import Callable

    HandleOf = Callable[[object], str]

# Bounds, all in one place.
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

_MISSING = object()
_NONE_TYPE = type(None)
_PRIMITIVES = (str, int, float, bool, _NONE_TYPE)
_CONTAINER_BASES = (dict, list, tuple, set, frozenset, str, bytes, bytearray)

_TYPE_NAME = type.__dict__["__name__"]
_TYPE_QUALNAME = type.__dict__["__qualname__"]
_TYPE_MODULE = type.__dict__["__module__"]
_TYPE_MRO = type.__dict__["__mro__"]
_TYPE_NS = type.__dict__["__dict__"]
_TYPE_BASES = type.__dict__["__bases__"]
_GETSET_TYPE = type(_TYPE_NS)
_MEMBER_TYPE = type(type.__dict__["__dictoffset__"])
_FUNCTION_TYPE = type(lambda: None)
_MODULE_TYPE = type(sys)
_MODULE_NS = _MODULE_TYPE.__dict__["__dict__"]
_FUNC_QUALNAME = _FUNCTION_TYPE.__dict__["__qualname__"]
_FUNC_CODE = _FUNCTION_TYPE.__dict__["__code__"]


def type_names(cls: type) -> tuple[str, str, str]:
    """(name, module, qualname) of a class, read without any metaclass hook."""
    name = _TYPE_NAME.__get__(cls)
    qualname = _TYPE_QUALNAME.__get__(cls)
    module = _TYPE_MODULE.__get__(cls)
    return name, module if type(module) is str else "?", qualname


def type_label(cls: type) -> str:
    """``qualname`` for builtins, ``module.qualname`` otherwise."""
    _, module, qualname = type_names(cls)
    return qualname if module == "builtins" else f"{module}.{qualname}"


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _builtin_base(cls: type):
    for base in _CONTAINER_BASES:
        if issubclass(cls, base):
            return base
    return None


def _scalar_fields(obj, str_limit: int) -> dict:
    """Value (or stand-in) of an exact primitive; {} for anything else."""
    t = type(obj)
    if t is str:
        if len(obj) <= str_limit:
            return {"value": obj}
        return {"length": len(obj)}
    if t is bool or obj is None:
        return {"value": obj}
    if t is int:
        if -SAFE_INT <= obj <= SAFE_INT:
            return {"value": obj}
        if obj.bit_length() <= INT_TEXT_BITS:
            return {"text": str(obj)}
        return {"bits": obj.bit_length(), "negative": obj < 0}
    if t is float:
        finite = obj - obj == 0.0  # inf - inf and nan - nan are nan
        return {"value": obj} if finite else {"text": str(obj)}
    return {}


def descriptor(obj, handle: str | None, *, str_limit: int = STR_VALUE_LIMIT) -> dict:
    """SPEC §5.2 handle descriptor: handle, type, module, qualname, plus the value of a primitive.

    int: a value only within ±(2**53 - 1), what a JSON double holds exactly; wider ints up to
    256 bits come as decimal "text", wider still as "bits". Non-finite floats come as "text".
    Strings longer than ``str_limit`` come as "length". Builtin containers add "length".
    """
    name, module, qualname = type_names(type(obj))
    d = {} if handle is None else {"handle": handle}
    d.update(type=name, module=module, qualname=qualname)
    d.update(_scalar_fields(obj, str_limit))
    base = _builtin_base(type(obj))
    if base is not None and base is not str:
        d["length"] = base.__len__(obj)
    return d


class _Budget:
    def __init__(self, nodes: int, chars: int):
        self.nodes = nodes
        self.chars = chars


def inspect_object(obj, handle_of: HandleOf, *, depth: int = 1, limit: int = 20) -> dict:
    """Bounded structure of ``obj``: ``depth`` (1–3) levels of items/fields, ``limit`` (1–100)
    per level, every node a descriptor with its own handle. "truncated" marks cut lists."""
    depth = max(1, min(3, int(depth)))
    limit = max(1, min(100, int(limit)))
    budget = _Budget(INSPECT_NODE_BUDGET, INSPECT_CHAR_BUDGET)
    return _inspect(obj, handle_of, depth, limit, budget, STR_VALUE_LIMIT)


def _inspect(obj, handle_of, depth, limit, budget, str_limit) -> dict:
    budget.nodes -= 1
    allowed = min(str_limit, max(0, budget.chars))
    d = descriptor(obj, handle_of(obj), str_limit=allowed)
    if type(d.get("value")) is str:
        budget.chars -= len(d["value"])
    elif type(obj) is str and "length" in d:
        d["preview"] = obj[: min(PREVIEW_CHARS, max(0, budget.chars))]
        budget.chars -= len(d["preview"])
    if depth <= 0:
        return d
    child = lambda value: _inspect(value, handle_of, depth - 1, limit, budget, CHILD_STR_LIMIT)
    cls = type(obj)
    base = _builtin_base(cls)
    if issubclass(cls, type):
        _describe_class(obj, d, limit)
    elif cls is _FUNCTION_TYPE:
        d["kind"] = "function"
        d["signature"] = function_signature(obj)
    elif cls is _MODULE_TYPE:
        d["kind"] = "module"
        names = [n for n in _MODULE_NS.__get__(obj) if type(n) is str and not n.startswith("_")]
        d["attributes"] = names[:limit]
        d["truncated"] = len(names) > limit
    elif base is dict:
        entries = []
        for key, value in dict.items(obj):
            if len(entries) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            entries.append({"key": child(key), "value": child(value)})
        d["entries"] = entries
    elif base in (list, tuple, set, frozenset):
        items = []
        for value in base.__iter__(obj):
            if len(items) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            items.append(child(value))
        d["items"] = items
    elif base in (bytes, bytearray):
        d["hex"] = base.hex(base.__getitem__(obj, slice(0, 64)))
    if base is None or cls is not base:
        fields = []
        for name, value in instance_fields(obj):
            if len(fields) >= limit or budget.nodes <= 0:
                d["truncated"] = True
                break
            fields.append({"name": name, "value": child(value)})
        if fields:
            d["fields"] = fields
    return d


def _describe_class(cls, d: dict, limit: int) -> None:
    d["kind"] = "class"
    d["name"] = type_names(cls)[2]
    d["bases"] = [type_label(b) for b in _TYPE_BASES.__get__(cls)]
    names = [n for n in _TYPE_NS.__get__(cls) if type(n) is str and not _is_dunder(n)]
    d["attributes"] = names[:limit]
    if len(names) > limit:
        d["truncated"] = True
    dc = _dataclass_fields(cls)
    if dc:
        d["dataclass_fields"] = {name: annotation_text(f.type) for name, f in list(dc.items())[:limit]}


def _namespaces(cls: type):
    for klass in _TYPE_MRO.__get__(cls):
        yield klass, _TYPE_NS.__get__(klass)


def _dataclass_fields(cls: type) -> dict | None:
    for _, ns in _namespaces(cls):
        fields = ns.get("__dataclass_fields__", _MISSING)
        if fields is not _MISSING:
            return fields if type(fields) is dict else None
    return None


def _instance_dict(obj) -> dict | None:
    cls = type(obj)
    for _, ns in _namespaces(cls):
        slot = ns.get("__dict__", _MISSING)
        if slot is _MISSING:
            continue
        if type(slot) is not _GETSET_TYPE:
            return None  # a class-defined __dict__ (property or the like): not ours to call
        try:
            value = slot.__get__(obj, cls)
        except Exception:
            return None
        return value if type(value) is dict else None
    return None


def instance_fields(obj) -> list[tuple[str, object]]:
    """(name, value) of an object's own state: dataclass fields first (declaration order), then
    the rest of the instance ``__dict__``, then ``__slots__`` members. Dunder names skipped."""
    cls = type(obj)
    found: dict[str, object] = {}
    inst = _instance_dict(obj)
    slots: dict[str, object] = {}
    for klass, ns in _namespaces(cls):
        if klass is object or klass is type:
            continue
        for name, member in ns.items():
            if type(member) is _MEMBER_TYPE and type(name) is str and name not in slots:
                try:
                    slots[name] = member.__get__(obj, cls)
                except Exception:
                    continue
    dc = _dataclass_fields(cls) or {}
    for name in dc:
        if inst is not None and name in inst:
            found[name] = inst[name]
        elif name in slots:
            found[name] = slots[name]
    for source in (inst or {}, slots):
        for name, value in source.items():
            if type(name) is str and name not in found and not _is_dunder(name):
                found[name] = value
    return list(found.items())


def annotation_text(tp) -> str:
    """Readable text of a type annotation without touching program hooks (see header)."""
    if type(tp) is str:
        return tp[:PREVIEW_CHARS]
    if tp is None:
        return "None"
    if issubclass(type(tp), type):
        return type_label(tp)
    if type_names(type(tp))[1] in ("typing", "types", "typing_extensions"):
        try:
            return repr(tp)[:PREVIEW_CHARS]
        except Exception:
            pass
    return type_label(type(tp))


def function_signature(fn) -> str:
    """``name(a, b=…, *args, c, **kw)`` from the code object; annotations of str/class kind."""
    code = _FUNC_CODE.__get__(fn)
    names = code.co_varnames
    pos = code.co_argcount
    kwonly = code.co_kwonlyargcount
    parts = list(names[:pos])
    if code.co_posonlyargcount:
        parts.insert(code.co_posonlyargcount, "/")
    i = pos + kwonly
    if code.co_flags & 0x04:  # CO_VARARGS
        parts.append("*" + names[i])
        i += 1
    elif kwonly:
        parts.append("*")
    parts.extend(names[pos : pos + kwonly])
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        parts.append("**" + names[i])
    return f"{_FUNC_QUALNAME.__get__(fn)}({', '.join(parts)})"


# ---- request content: related objects and frame objects (SPEC §5.1) ----


def _inline_value(obj):
    """A JSON value for a small primitive or a short flat list/tuple/dict of them, else _MISSING."""
    t = type(obj)
    if t in _PRIMITIVES:
        fields = _scalar_fields(obj, INLINE_STR_LIMIT)
        return fields["value"] if "value" in fields else _MISSING
    if t in (list, tuple, dict) and len(obj) <= INLINE_ITEMS:
        total = 0
        pairs = obj.items() if t is dict else ((None, v) for v in obj)
        out_list, out_dict = [], {}
        for key, value in pairs:
            if t is dict and (type(key) is not str or len(key) > 100):
                return _MISSING
            if type(value) not in _PRIMITIVES:
                return _MISSING
            fields = _scalar_fields(value, INLINE_ITEM_STR_LIMIT)
            if "value" not in fields:
                return _MISSING
            total += len(key or "") + (len(value) if type(value) is str else 8)
            if total > INLINE_TOTAL_CHARS:
                return _MISSING
            if t is dict:
                out_dict[key] = value
            else:
                out_list.append(value)
        return out_dict if t is dict else out_list
    return _MISSING


def summarize(obj, *, context_values: bool, handle: str | None = None) -> dict:
    """Structural summary for the request: descriptor fields, then either the value (small
    primitives, when context_values) or type, size, keys/field types, first item's type."""
    d = descriptor(obj, handle, str_limit=-1)
    d.pop("value", None)
    if context_values:
        value = _inline_value(obj)
        if value is not _MISSING:
            d.pop("length", None)
            d["value"] = value
            return d
    cls = type(obj)
    if cls is str:
        d["length"] = len(obj)
        if context_values:
            d["preview"] = obj[:PREVIEW_CHARS]
        return d
    if cls in (int, float) and not context_values:
        d.pop("text", None)
    if issubclass(cls, type):
        d["kind"] = "class"
        dc = _dataclass_fields(obj)
        if dc:
            d["dataclass_fields"] = {n: annotation_text(f.type) for n, f in list(dc.items())[:FIELDS_LIMIT]}
        return d
    if cls is _FUNCTION_TYPE:
        d["kind"] = "function"
        d["signature"] = function_signature(obj)
        return d
    if cls is _MODULE_TYPE:
        d["kind"] = "module"
        return d
    base = _builtin_base(cls)
    if base is dict:
        _summarize_dict(obj, d, context_values)
    elif base in (list, tuple, set, frozenset):
        for first in base.__iter__(obj):
            d["item_type"] = type_label(type(first))
            break
    if base is None or cls is not base:
        fields = instance_fields(obj)
        if fields:
            d["fields"] = {name: type_label(type(value)) for name, value in fields[:FIELDS_LIMIT]}
            if len(fields) > FIELDS_LIMIT:
                d["fields_truncated"] = True
    return d


def _summarize_dict(obj, d: dict, context_values: bool) -> None:
    # Keys are structure when they look like identifiers; with context_values off, other str
    # keys (emails, ids, free text) are data and are left out.
    keys: dict[str, str] = {}
    other = None
    for key, value in dict.items(obj):
        if type(key) is str and (context_values or (key.isidentifier() and len(key) <= 40)):
            if len(keys) < FIELDS_LIMIT:
                keys[key[:100]] = type_label(type(value))
            else:
                d["keys_truncated"] = True
        elif other is None:
            other = (key, value)
    if keys:
        d["keys"] = keys
    if other is not None:
        d["key_type"] = type_label(type(other[0]))
        d["value_type"] = type_label(type(other[1]))


def statement_words(text: str) -> list[str]:
    """Identifier-like words of ``text`` in order of first occurrence (``ticket.body`` gives
    ``ticket`` and ``body``)."""
    words: dict[str, None] = {}
    start = None
    for i, ch in enumerate(text + " "):
        if ch.isalnum() or ch == "_":
            if start is None:
                start = i
            continue
        if start is not None:
            word = text[start:i]
            if word.isidentifier():
                words.setdefault(word, None)
            start = None
    return list(words)


def _hidden_name(name: str) -> bool:
    return _is_dunder(name) or name.startswith("_aiython")


def related_objects(
    frame,
    statement_text: str,
    *,
    context_values: bool,
    handle_of: HandleOf | None = None,
    scopes: list[tuple[str, dict]] | None = None,
) -> list[dict]:
    """Every local or global whose name occurs as a word in ``statement_text`` (SPEC §5.1), in
    order of first occurrence, at most RELATED_LIMIT. Builtins and dunder names are left out,
    and so is a function's local that is not bound yet (it shadows any global of that name).
    Modules, functions and classes named in the text are kept, described briefly (kind,
    qualname, a function's parameters): the text names them, so the model may need them.

    ``scopes`` is the lookup order as (scope, mapping) pairs; default ``frame_scopes(frame)``.
    """
    if scopes is None:
        scopes = frame_scopes(frame)
    out = []
    for word in statement_words(statement_text):
        if _hidden_name(word):
            continue
        for scope, mapping in scopes:
            value = dict.get(mapping, word, _MISSING)
            if value is _MISSING:
                continue
            if value is not UNBOUND:
                handle = handle_of(value) if handle_of else None
                summary = summarize(value, context_values=context_values, handle=handle)
                out.append({"name": word, "scope": scope, **summary})
            break
        if len(out) >= RELATED_LIMIT:
            break
    return out


UNBOUND = object()  # frame_scopes: a function's local that has no value yet


def frame_scopes(frame) -> list[tuple[str, dict]]:
    """(scope, names) in lookup order: "local" (UNBOUND for a function's unassigned locals),
    "enclosing" (free variables), "global". A module frame has only "global"."""
    from . import pycompat

    if not pycompat.is_optimized(frame):
        namespace = frame.f_locals
        if namespace is frame.f_globals:
            return [("global", frame.f_globals)]
        # A class body's namespace may be a program mapping (metaclass __prepare__): not read.
        local = dict(namespace) if type(namespace) is dict else {}
        return [("local", local), ("global", frame.f_globals)]
    code = frame.f_code
    values = pycompat.read_frame_locals(frame)
    free = set(code.co_freevars)
    local = {n: values.get(n, UNBOUND) for n in pycompat.frame_local_names(code) if n not in free}
    enclosing = {n: values[n] for n in code.co_freevars if n in values}
    return [("local", local), ("enclosing", enclosing), ("global", frame.f_globals)]


def frame_objects(
    frame,
    *,
    context_values: bool = True,
    handle_of: HandleOf | None = None,
    limit: int = FRAME_OBJECTS_LIMIT,
    scopes: list[tuple[str, dict]] | None = None,
) -> list[dict]:
    """The frame's own bound names (a module frame's globals; a function's locals, free
    variables and any ``scopes`` other than "global"), at most ``limit``, dunders skipped, each
    a compact descriptor (values of primitives only with context_values)."""
    if scopes is None:
        scopes = frame_scopes(frame)
    own = [(name, value) for scope, mapping in scopes if scope != "global" or len(scopes) == 1
           for name, value in dict.items(mapping) if value is not UNBOUND]
    return describe_names(own, context_values=context_values, handle_of=handle_of, limit=limit)


def describe_names(items, *, context_values: bool, handle_of: HandleOf | None, limit: int) -> list[dict]:
    """Compact ``{"name", descriptor…}`` entries for (name, value) pairs, skipping dunders."""
    out = []
    for name, value in items:
        if type(name) is not str or not name.isidentifier() or _hidden_name(name):
            continue
        if len(out) >= limit:
            break
        d = descriptor(value, handle_of(value) if handle_of else None, str_limit=LISTING_STR_LIMIT)
        if not context_values:
            for key in ("value", "text"):
                d.pop(key, None)
        out.append({"name": name, **d})
    return out
