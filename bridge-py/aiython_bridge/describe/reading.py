"""Reading a program object's type and own state without running program code (see __init__).

Type names come through ``type``'s own getsets, so a metaclass property cannot intercept them;
instance state through the C getset that owns ``__dict__`` and the member descriptors of
``__slots__``, found in the class namespaces, never through attribute lookup.
"""

from __future__ import annotations

import sys

from .bounds import PREVIEW_CHARS

__all__ = [
    "BUILTIN_FUNCTION_TYPE", "FUNCTION_TYPE", "MODULE_DUNDERS", "MODULE_NS", "MODULE_TYPE",
    "TYPE_BASES", "TYPE_NS", "annotation_text", "builtin_base", "dataclass_fields",
    "function_signature", "hidden_name", "instance_fields", "is_dunder", "known_from_code",
    "type_label", "type_names",
]

_MISSING = object()
_CONTAINER_BASES = (dict, list, tuple, set, frozenset, str, bytes, bytearray)

_TYPE_NAME = type.__dict__["__name__"]
_TYPE_QUALNAME = type.__dict__["__qualname__"]
_TYPE_MODULE = type.__dict__["__module__"]
_TYPE_MRO = type.__dict__["__mro__"]
TYPE_NS = type.__dict__["__dict__"]
TYPE_BASES = type.__dict__["__bases__"]
_GETSET_TYPE = type(TYPE_NS)
_MEMBER_TYPE = type(type.__dict__["__dictoffset__"])
FUNCTION_TYPE = type(lambda: None)
BUILTIN_FUNCTION_TYPE = type(len)
MODULE_TYPE = type(sys)
MODULE_NS = MODULE_TYPE.__dict__["__dict__"]
_FUNC_QUALNAME = FUNCTION_TYPE.__dict__["__qualname__"]
_FUNC_CODE = FUNCTION_TYPE.__dict__["__code__"]


def type_names(cls: type) -> tuple[str, str, str]:
    """(name, module, qualname) of a class, read without any metaclass hook."""
    name = _TYPE_NAME.__get__(cls)
    qualname = _TYPE_QUALNAME.__get__(cls)
    module = _TYPE_MODULE.__get__(cls)
    return name, module if type(module) is str else "?", qualname


def known_from_code(obj) -> bool:
    """A module, a function (a builtin one too), a class or a typing form: what a block's code
    context shows the origin of, so its request's frame_objects leave it out (SPEC §5.1;
    related_objects keeps one the block's text names). Read from ``type(obj)`` alone, no hook."""
    cls = type(obj)
    return (cls is MODULE_TYPE or cls is FUNCTION_TYPE or cls is BUILTIN_FUNCTION_TYPE or issubclass(cls, type)
            or _TYPE_MODULE.__get__(cls) == "typing")


def type_label(cls: type) -> str:
    """``qualname`` for builtins, ``module.qualname`` otherwise."""
    _, module, qualname = type_names(cls)
    return qualname if module == "builtins" else f"{module}.{qualname}"


def is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


# A module's own dunders, first in its globals: request content skips them with a set lookup.
MODULE_DUNDERS = frozenset(("__name__", "__doc__", "__package__", "__loader__", "__spec__", "__annotations__",
                            "__builtins__", "__file__", "__cached__"))


def hidden_name(name: str) -> bool:
    """A name request content leaves out: a dunder or one of aiython's own (spelled out: it runs
    for every name of a frame at every pause)."""
    return name.startswith("_") and ((name.startswith("__") and name.endswith("__")) or name.startswith("_aiython"))


def builtin_base(cls: type):
    for base in _CONTAINER_BASES:
        if issubclass(cls, base):
            return base
    return None


def _namespaces(cls: type):
    for klass in _TYPE_MRO.__get__(cls):
        yield klass, TYPE_NS.__get__(klass)


def dataclass_fields(cls: type) -> dict | None:
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
    dc = dataclass_fields(cls) or {}
    for name in dc:
        if inst is not None and name in inst:
            found[name] = inst[name]
        elif name in slots:
            found[name] = slots[name]
    for source in (inst or {}, slots):
        for name, value in source.items():
            if type(name) is str and name not in found and not is_dunder(name):
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
