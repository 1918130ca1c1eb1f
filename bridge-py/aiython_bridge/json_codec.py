"""The channel's JSON, from the `_json` accelerator directly: the `json` package itself costs
about 2 ms of every start (json.decoder, json.scanner, json.encoder and their set-up), and a
program that never imports json should not find it in sys.modules (SPEC §2).

`encode(message, ensure_ascii)` is what `json.JSONEncoder(ensure_ascii=..., separators=(",",
":"), allow_nan=False).encode(message)` returns for the dicts the channel sends, built by the
same C encoder that json uses; `decode(text)` is `json.loads(text)`, by the same C scanner. Only
a text the scanner does not take whole and cleanly (leading whitespace, trailing data, an error)
goes through `json.loads` itself, so every error is json's own, raised by json. Where `_json`
is missing or has another shape, everything goes through json.
"""

try:
    from _json import encode_basestring, encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # an interpreter without the accelerator: json's pure-Python code
    make_encoder = make_scanner = None

__all__ = ["decode", "encode", "encode_many"]

_CONSTANTS = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}


class _DecoderOptions:
    """What the C scanner reads from a json.JSONDecoder made with no arguments."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = _CONSTANTS.__getitem__
    memo = {}  # the C scanner keeps its own; the Python one would read this


def _default(o):
    # json.JSONEncoder.default: the same error for a value JSON has no form for
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def _json():
    import json

    return json


def encode(message, ensure_ascii=False):
    """`message` (a dict) as compact JSON text, as json.JSONEncoder would give it."""
    if make_encoder is None or isinstance(message, str):
        return _json().JSONEncoder(ensure_ascii=ensure_ascii, separators=(",", ":"), allow_nan=False).encode(message)
    # A new encoder for each message: its table of the containers being encoded (the circular
    # reference check) must start empty, as json makes it for each call.
    strings = encode_basestring_ascii if ensure_ascii else encode_basestring
    chunks = make_encoder({}, _default, strings, None, ":", ",", False, False, False)(message, 0)
    return "".join(chunks)


def encode_many(values, ensure_ascii=False):
    """[encode(value) for value in values], with one encoder for them all."""
    if make_encoder is None:
        return [encode(value, ensure_ascii) for value in values]
    strings = encode_basestring_ascii if ensure_ascii else encode_basestring
    encoder = make_encoder({}, _default, strings, None, ":", ",", False, False, False)
    return ["".join(encoder(value, 0)) for value in values]  # the table of containers is empty again after each


def _accelerated():
    """The C encoder and scanner, if this interpreter's `_json` takes what json itself passes."""
    try:
        make_encoder({}, _default, encode_basestring, None, ":", ",", False, False, False)
        return make_encoder, make_scanner(_DecoderOptions())
    except (TypeError, AttributeError):
        return None, None


if make_encoder is not None:
    make_encoder, _scan = _accelerated()
else:
    _scan = None


def decode(text):
    """json.loads(text) for a str."""
    if _scan is not None:
        try:
            value, end = _scan(text, 0)
        except Exception:  # noqa: BLE001 - json.loads below raises json's own error for it
            pass
        else:
            if end == len(text):
                return value
    return _json().loads(text)
