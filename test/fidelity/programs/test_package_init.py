# Copied into a project as test/__init__.py, for Lib/test files that must be imported as
# test.test_X (their doctests and messages name that module): the project's `test` package is
# the standard library's too, so test.support and the other helpers still come from there.
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)
