"""What a block's request lists of its frame (SPEC §5.1, Invocation.request_objects): related_objects
for the names its text uses, and frame_objects for the rest of the frame's own names, less modules,
functions, classes and typing forms (the code context shows where they come from; requests stay
small, SPEC §12), before the listing's limit, and read without running any program hook.
Run under 3.11, 3.12 and 3.13."""

import abc
import sys
import typing
import unittest

from aiython_bridge.describe import FRAME_OBJECTS_LIMIT, known_from_code
from aiython_bridge.frameops import Invocation

MODULE_SOURCE = """
import json, os
from collections import OrderedDict
import typing
Alias = typing.List[int]
def helper(x):
    return x
class Thing:
    pass
class Shape(abc.ABC):
    pass
count = 3
names = ["a", "b"]
ratio = 0.5
frame = sys._getframe()
"""


def module_frame(source, extra=()):
    """A module-level frame of `source`, with `extra` (name, value) globals bound first."""
    namespace = {"__name__": "program", "abc": abc, "sys": sys}
    namespace.update(extra)
    exec(compile(source, "/project/program.py", "exec"), namespace)
    return namespace["frame"]


class Hooked(type):
    def __instancecheck__(cls, obj):
        raise AssertionError("a metaclass hook ran")

    def __subclasscheck__(cls, sub):
        raise AssertionError("a metaclass hook ran")


class Sneaky(metaclass=Hooked):
    @property
    def __class__(self):
        raise AssertionError("a property ran")


class RequestObjects(unittest.TestCase):
    def test_frame_objects_leave_out_what_the_code_shows_and_what_related_objects_describes(self):
        inv = Invocation(module_frame(MODULE_SOURCE), line=15)
        related, listed = inv.request_objects("double the count")
        self.assertEqual([entry["name"] for entry in related], ["count"])
        self.assertEqual([entry["name"] for entry in listed], ["names", "ratio", "frame"])
        self.assertEqual(listed[1]["value"], 0.5)

    def test_left_out_names_do_not_use_up_the_limit(self):
        modules = [("m%d" % i, sys) for i in range(FRAME_OBJECTS_LIMIT + 10)]
        inv = Invocation(module_frame(MODULE_SOURCE, modules), line=15)
        _, listed = inv.request_objects("double the count")
        self.assertEqual([entry["name"] for entry in listed], ["names", "ratio", "frame"])

    def test_a_function_frame_lists_its_locals_the_same_way(self):
        def block_site():
            import json
            parse = json.loads
            rows = [1, 2]
            kind = dict
            width = len
            total = 0.0
            found = Invocation(sys._getframe(), line=1).request_objects("count the rows")
            del parse, rows, kind, width, total  # read by the tool through the frame only
            return found
        related, listed = block_site()
        self.assertEqual([entry["name"] for entry in related], ["rows"])
        self.assertEqual([entry["name"] for entry in listed], ["total"])

    def test_known_from_code_reads_the_type_alone(self):
        for obj in (sys, unittest.main, len, print, Sneaky, Hooked, abc.ABC, typing.List[int], typing.Optional[str]):
            self.assertTrue(known_from_code(obj), obj)
        for obj in (Sneaky(), 3, "text", [1], object(), self.setUp):
            self.assertFalse(known_from_code(obj), obj)


if __name__ == "__main__":
    unittest.main()
