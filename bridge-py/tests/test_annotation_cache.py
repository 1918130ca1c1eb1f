"""Annotation texts are compiled once per process (contracts/resolve.py `_compiled`): what a text
names is still looked up in each frame's namespaces, and a refused text is refused every time
with the same message."""

import unittest

from aiython_bridge.contracts import resolve_annotation
from aiython_bridge.errors import UnsupportedAnnotation


class First:
    pass


class Second:
    pass


class AnnotationCacheTest(unittest.TestCase):
    def test_a_text_seen_before_resolves_against_the_new_namespaces(self):
        self.assertIs(resolve_annotation("Ticket", {"Ticket": First}), First)
        self.assertIs(resolve_annotation("Ticket", {"Ticket": Second}), Second)
        self.assertIs(resolve_annotation("Ticket", {}, {"Ticket": First}), First)
        self.assertEqual(resolve_annotation("list[Ticket]", {"Ticket": Second}), list[Second])
        with self.assertRaises(UnsupportedAnnotation) as caught:
            resolve_annotation("Ticket", {})
        self.assertIn("name 'Ticket' is not defined", str(caught.exception))

    def test_a_refused_text_is_refused_every_time(self):
        calls = []
        namespace = {"make": lambda: calls.append(1) or int}
        for _ in range(3):
            with self.assertRaises(UnsupportedAnnotation) as caught:
                resolve_annotation("list[", namespace)
            self.assertIn("cannot resolve annotation list[: it is not valid Python", str(caught.exception))
            with self.assertRaises(UnsupportedAnnotation) as caught:
                resolve_annotation("list[make()]", namespace)
            self.assertIn("Call is not allowed in an annotation", str(caught.exception))
        self.assertEqual(calls, [])


if __name__ == "__main__":
    unittest.main()
