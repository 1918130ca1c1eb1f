"""Type contracts (SPEC §6): the public face of the expected-type checks of AI block targets.

Values produced by the model are checked against the expected type of a block's target before
Python sees them: JSON values of a `literal` outcome with `check_value` (strict, converted exactly),
existing objects (`set_binding`, `handle`/`reference`/`expression` outcomes, names rebound by
`execute`) with `check_object` (checked, identity kept). `json_schema` describes the type to the
model, `type_repr` spells it in messages and in `--explain`, and `resolve_annotation` turns an
annotation's source text into a type at run time.

The work is split by job, one module each in this package: resolve (evaluating text), forms
(reading typing, all version differences), schema, check, repr (spelling types and values).
Nothing here calls `repr()`, `str()`, properties or `__eq__` of program objects, except where the
type demands it (Literal comparison, Enum lookup, isinstance for classes, and the
constructor of a dataclass built from JSON).
"""

from ..errors import TypeContractError, UnsupportedAnnotation
from .check import check_existing
from .convert import convert_value
from .walk import Mismatch
from .forms import SUPPORTED, Unsupported, unsupported_message
from .repr import type_repr
from .resolve import ResolveError, evaluate_annotation
from .schema import build_schema

__all__ = [
    "SUPPORTED", "check_object", "check_value", "is_supported", "json_schema", "resolve_annotation",
    "resolve_with_schema", "type_repr",
]


def resolve_annotation(text: str, globals_: dict, locals_: dict | None = None) -> object:
    """The type an annotation's source text names in a frame; UnsupportedAnnotation if none or unsupported."""
    return resolve_with_schema(text, globals_, locals_)[0]


def resolve_with_schema(text: str, globals_: dict, locals_: dict | None = None) -> tuple[object, dict]:
    """resolve_annotation and the type's json_schema, from one schema build (a block's pause needs both)."""
    try:
        tp = evaluate_annotation(text, globals_, locals_)
    except ResolveError as error:
        raise UnsupportedAnnotation(f"cannot resolve annotation {text.strip()}: {error}") from None
    return tp, json_schema(tp, annotation=text.strip())


def json_schema(tp, *, annotation: str | None = None) -> dict:
    """JSON Schema of `tp` for the model; `annotation` names the source text in error messages."""
    try:
        return build_schema(tp)
    except Unsupported as error:
        raise UnsupportedAnnotation(unsupported_message(annotation or type_repr(tp), error)) from None


def is_supported(tp) -> bool:
    try:
        build_schema(tp)
    except Unsupported:
        return False
    return True


def check_value(value, tp, path: str = "value") -> object:
    """A JSON value from the model, strictly checked and converted to `tp`; TypeContractError if it does not fit."""
    return _checked(convert_value, value, tp, path)


def check_object(obj, tp, path: str = "value") -> object:
    """`obj` itself if it satisfies `tp` (nothing converted); TypeContractError if it does not."""
    _checked(check_existing, obj, tp, path)
    return obj


def _checked(check, value, tp, path):
    """`check(value, tp, path)`, its failures as the public errors."""
    try:
        return check(value, tp, path)
    except Mismatch as error:
        raise TypeContractError(error.message) from None
    except Unsupported as error:
        raise UnsupportedAnnotation(unsupported_message(type_repr(tp), error)) from None
    except RecursionError:
        raise TypeContractError(f"{path}: value nested too deeply to check against {type_repr(tp)}") from None
