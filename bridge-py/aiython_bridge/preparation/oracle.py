"""The compile oracle: this interpreter's verdict on whether source text parses (SPEC §3.1).

``check(items)`` answers each ``{"source": str, "filename": str}`` with ``{"ok": True}`` or
``{"ok": False, "error": {"message", "line", "column", "end_line", "end_column"}}``: lines are
1-based, columns 0-based and counted in characters (code points). This module is the one place
that turns CPython's SyntaxError positions into that form.

What "parses" means here: the parser's verdict, nothing later. CPython raises some SyntaxErrors
after parsing, from the symbol table or the code generator: ``'return' outside function``,
``nonlocal`` at module level, ``'await' outside async function``, duplicate argument names,
``from __future__ import braces``. Those are valid *syntax* to a user (no span of the program is
natural language), so they answer ``{"ok": True}``: they never become AI blocks, and CPython
reports them itself, with its own message, when the program runs.

How, and why this way:
- ``symtable.symtable`` runs the parser and the symbol-table pass but neither converts the AST to
  Python objects (the costly half of ``ast.parse``) nor generates code, so it is the cheapest full
  parse of a valid file, which is the case every valid program takes.
- A SyntaxError that carries the offending line's text comes from the parser. One without text
  comes from the symbol-table stage (or is the null-byte refusal); for those,
  ``compile(..., ast.PyCF_ONLY_AST)`` (parser only) decides.
- CPython is given a pseudo file name, never the item's ``filename``: for a real path the parser
  reads the error line back *from disk* and counts columns against that text, which is not the
  text being checked (a rewritten program, a window of a file). ``filename`` is echoed only in
  messages about failures that are not syntax errors.
- Warnings are silenced while compiling: a ``SyntaxWarning`` (invalid escape sequence) must not
  reach the program's stderr, and under ``-W error`` it would otherwise turn into a SyntaxError.
- Offsets: for ``str`` sources CPython 3.11-3.13 report 1-based code-point offsets; ``column`` is
  ``offset - 1``. End positions that CPython leaves unset or sets to 0/-1 become ``None``.
  CPython 3.11 reports f-string expression errors relative to the parenthesised expression text,
  not to the line; those are mapped back onto the line here.

Standard library only.
"""

from __future__ import annotations

import ast
import re
import symtable
import warnings
from typing import Any

__all__ = ["check"]

_PSEUDO_FILENAME = "<aiython compile oracle>"
_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line breaks of CPython's tokenizer


def check(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One verdict per item, in order. Never raises for any source text."""
    return [_check_one(item) for item in items]


def _check_one(item: dict[str, Any]) -> dict[str, Any]:
    source = item.get("source")
    filename = str(item.get("filename", "<unknown>"))
    if not isinstance(source, str):
        return _error(f"{filename}: source is not a string", 1, 0, None, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            symtable.symtable(source, _PSEUDO_FILENAME, "exec")
            return {"ok": True}
        except SyntaxError as exc:
            if exc.text is not None and exc.lineno is not None:
                return _from_syntax_error(exc, source)
        except (ValueError, RecursionError, MemoryError, UnicodeError):
            pass  # decided below by the parser alone
        try:
            compile(source, _PSEUDO_FILENAME, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
            return {"ok": True}
        except SyntaxError as exc:
            return _from_syntax_error(exc, source)
        except ValueError as exc:  # null bytes on interpreters that raise ValueError for them
            return _null_byte_or_other(exc, source)
        except (RecursionError, MemoryError, UnicodeError) as exc:
            return _error(f"{type(exc).__name__}: {exc}", 1, 0, None, None)


def _from_syntax_error(exc: SyntaxError, source: str) -> dict[str, Any]:
    if exc.lineno is None:
        return _null_byte_or_other(exc, source)
    message = str(exc.msg)
    line = max(1, int(exc.lineno))
    column = _column(exc.offset)
    end_line = int(exc.end_lineno) if exc.end_lineno else None
    end_column = _column(exc.end_offset) if end_line is not None else None
    if end_column is None:
        end_line = None
    if message.startswith("f-string") and exc.text is not None:
        mapped = _map_fstring_error(exc, source, line)
        if mapped is not None:
            column, end_column = mapped
            end_line = line if end_column is not None else None
    return _error(message, line, column if column is not None else 0, end_line, end_column)


def _column(offset: int | None) -> int | None:
    if offset is None or offset <= 0:
        return None
    return int(offset) - 1


def _map_fstring_error(exc: SyntaxError, source: str, line: int) -> tuple[int, int | None] | None:
    """3.11 parses f-string fields separately and reports offsets into ``(expression)``."""
    text = (exc.text or "").rstrip("\r\n")
    lines = _NEWLINE.split(source)
    if line > len(lines) or not (text.startswith("(") and text.endswith(")")):
        return None
    source_line = lines[line - 1]
    if source_line == text:
        return None  # already relative to the line (3.12+)
    inner = text[1:-1]
    index = source_line.find(inner)
    if index < 0 or not inner:
        return None
    start = index + max(0, (exc.offset or 2) - 2)
    end = index + exc.end_offset - 2 if exc.end_offset and exc.end_offset >= 2 else None
    return start, end


def _null_byte_or_other(exc: BaseException, source: str) -> dict[str, Any]:
    nul = source.find("\0")
    if nul >= 0:
        before = _NEWLINE.split(source[:nul])
        line, column = len(before), len(before[-1])
        return _error("source code cannot contain null bytes", line, column, None, None)
    message = getattr(exc, "msg", None) or str(exc)
    return _error(str(message), 1, 0, None, None)


def _error(message: str, line: int, column: int, end_line: int | None, end_column: int | None) -> dict[str, Any]:
    return {
        "ok": False,
        "error": {
            "message": message,
            "line": line,
            "column": column,
            "end_line": end_line,
            "end_column": end_column,
        },
    }
