"""The names a program imports from `aiython` say `aiython` wherever Python prints a class's module:
repr, help, pickling's lookup and tracebacks of the errors name the public module, not the bridge's
rooms where they happen to live."""

import os
import pickle
import sys
import unittest

# The public package lives in its own folder, which a run puts on the import system's path.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))
import aiython  # noqa: E402


class PublicNamesTest(unittest.TestCase):
    def test_every_public_class_names_the_public_module(self):
        classes = [getattr(aiython, name) for name in aiython.__all__ if isinstance(getattr(aiython, name), type)]
        self.assertEqual(sorted(cls.__name__ for cls in classes), ["AIBudgetError", "AIError", "Group", "MailboxError", "Member", "TypeContractError"])
        for cls in classes:
            self.assertEqual(cls.__module__, "aiython", cls)
            self.assertIn("'aiython.%s'" % cls.__name__, repr(cls))

    def test_an_error_pickles_by_its_public_name(self):
        self.assertIn(b"aiython", pickle.dumps(aiython.AIError("x")))
        self.assertIsInstance(pickle.loads(pickle.dumps(aiython.AIError("x"))), aiython.AIError)


if __name__ == "__main__":
    unittest.main()
