"""The compile oracle: verdicts, character columns, parser-only semantics, silence."""

import contextlib
import io
import unittest
import warnings

from aiython_bridge.preparation import oracle


def verdict(source: str) -> dict:
    (result,) = oracle.check([{"source": source, "filename": "prog.py"}])
    return result


def error(source: str) -> dict:
    result = verdict(source)
    assert result["ok"] is False, f"expected a syntax error for {source!r}, got {result}"
    return result["error"]


class ValidSourceTest(unittest.TestCase):
    def test_valid_module_is_ok(self):
        self.assertEqual(verdict("x = 1\nprint(x)\n"), {"ok": True})

    def test_one_verdict_per_item_in_order(self):
        items = [{"source": s, "filename": "f.py"} for s in ("a = 1\n", "a = = 1\n", "b = 2\n")]
        results = oracle.check(items)
        self.assertEqual([r["ok"] for r in results], [True, False, True])

    def test_empty_batch(self):
        self.assertEqual(oracle.check([]), [])


class LaterStageErrorsAreNotParseErrorsTest(unittest.TestCase):
    """Errors from the symbol table or code generator are valid syntax to a user (not blocks)."""

    def test_return_outside_function(self):
        self.assertEqual(verdict("return 1\n"), {"ok": True})

    def test_nonlocal_at_module_level(self):
        self.assertEqual(verdict("nonlocal x\n"), {"ok": True})

    def test_await_outside_async(self):
        self.assertEqual(verdict("await x\n"), {"ok": True})

    def test_yield_outside_function_and_break_outside_loop(self):
        self.assertEqual(verdict("yield 1\nbreak\n"), {"ok": True})

    def test_duplicate_argument(self):
        self.assertEqual(verdict("def f(a, a):\n    pass\n"), {"ok": True})

    def test_future_braces(self):
        self.assertEqual(verdict("from __future__ import braces\n"), {"ok": True})

    def test_a_real_parse_error_after_a_later_stage_error_is_still_found(self):
        err = error("nonlocal x\ny = classify this ticket\n")
        self.assertEqual((err["line"], err["column"]), (2, 13))


class PositionsTest(unittest.TestCase):
    def test_line_and_zero_based_column(self):
        err = error("x = 1\nsummary = summarize the routed tickets\n")
        self.assertEqual(err["line"], 2)
        self.assertEqual(err["column"], len("summary = summarize "))
        self.assertEqual(err["message"], "invalid syntax")

    def test_columns_count_code_points_not_bytes(self):
        # 'é' is 2 UTF-8 bytes; '😀' is 4 UTF-8 bytes and 2 UTF-16 units: still one column each.
        err = error("x = '😀é' + classify this\n")
        self.assertEqual(err["column"], len("x = '😀é' + classify "))
        self.assertEqual(err["end_column"], len("x = '😀é' + classify this"))
        self.assertEqual(err["end_line"], 1)

    def test_unterminated_string_position(self):
        err = error("é = 1\nx = 'ééé' + 'unterminated\n")
        self.assertEqual((err["line"], err["column"]), (2, len("x = 'ééé' + ")))
        self.assertIn("unterminated string literal", err["message"])

    def test_unclosed_bracket_points_at_the_bracket_and_has_no_end(self):
        err = error("x = 'é' + (\ny = 2\n")
        self.assertEqual((err["line"], err["column"]), (1, len("x = 'é' + ")))
        self.assertIsNone(err["end_column"])
        self.assertIsNone(err["end_line"])

    def test_indentation_error(self):
        err = error("def f():\nreturn 1\n")
        self.assertEqual(err["line"], 2)
        self.assertTrue(err["message"].startswith("expected an indented block"))

    def test_unindent_mismatch_has_no_end_column(self):
        err = error("if x:\n    a = 1\n  b = 2\n")
        self.assertEqual(err["line"], 3)
        self.assertIsNone(err["end_column"])

    def test_fstring_field_error_column_lies_inside_the_field(self):
        source = "x = f'{é + classify this}'\n"
        err = error(source)
        self.assertEqual(err["line"], 1)
        field_start = source.index("{") + 1
        field_end = source.index("}")
        self.assertGreaterEqual(err["column"], field_start)
        self.assertLess(err["column"], field_end)

    def test_null_bytes_report_their_line(self):
        err = error("x = 1\ny = 2\0\n")
        self.assertEqual((err["line"], err["column"]), (2, 5))
        self.assertIn("null bytes", err["message"])

    def test_carriage_returns_are_line_breaks(self):
        err = error("x = 1\ry = 2\r\nz = classify it\n")
        self.assertEqual(err["line"], 3)


class SilenceTest(unittest.TestCase):
    def test_invalid_escape_warning_is_neither_printed_nor_an_error(self):
        stderr = io.StringIO()
        with warnings.catch_warnings(), contextlib.redirect_stderr(stderr):
            warnings.simplefilter("error")
            self.assertEqual(verdict("x = '\\d'\n"), {"ok": True})
        self.assertEqual(stderr.getvalue(), "")

    def test_the_file_on_disk_is_never_read(self):
        # An item named after this very test file: columns must come from the source given.
        err = oracle.check([{"source": "a = 'ééé' ok no\n", "filename": __file__}])[0]["error"]
        self.assertEqual(err["column"], len("a = 'ééé' "))

    def test_non_string_source_is_an_error_verdict(self):
        result = oracle.check([{"source": None, "filename": "x.py"}])[0]
        self.assertFalse(result["ok"])


if __name__ == "__main__":
    unittest.main()
