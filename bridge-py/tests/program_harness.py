"""The harness of the bridge's checkpoint tests: a Program in a temporary project folder, run
plainly or instrumented with a fake decision source (tests/support.py), and the traceback text
from the program's own frames on. Shared by test_instrument, test_recovery*, test_who_handles and
the bytecode scenarios.
"""

import builtins
import contextlib
import io
import os
import shutil
import tempfile
import textwrap
import traceback

from aiython_bridge.preparation.program_code import compile_unbound
from aiython_bridge.recovery.checkpoints import CheckpointRuntime
from tests.support import LocalDecisions


def refuse(request, op):
    raise AssertionError(f"unexpected consultation at {request['block_id']}: {request['recovery']}")


class Program:
    """A program in a temporary project folder, run plainly or instrumented with a fake decision
    source (`decide(request, op)`, see tests/support.py) in place of the host.

    The handlers hold the runtime as a constant, so a generator the program left suspended can be
    closed by the garbage collector after the test."""

    def __init__(self, test, source, decide=refuse, *, name="prog.py"):
        self.source = textwrap.dedent(source)
        self.root = tempfile.mkdtemp(prefix="aiython-recovery-")
        test.addCleanup(shutil.rmtree, self.root, True)
        self.path = os.path.join(self.root, name)
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(self.source)
        self.requests = []

        def recording(request, op):
            self.requests.append(request)
            return decide(request, op)

        self.runtime = CheckpointRuntime(LocalDecisions(recording), project_root=self.root)
        self.runtime.callers.top_codes.add(Program.run.__code__)  # this harness runs the program
        self.namespace = None
        self.table = None

    def compile(self, instrumented):
        if not instrumented:
            return compile(self.source, self.path, "exec", dont_inherit=True)
        compiled = compile_unbound(self.source, self.path, {}, checkpoints=True, entry=True)
        self.table = compiled.checkpoints
        return compiled.bind(checkpoints=self.runtime, filename=self.path)

    def run(self, instrumented=True):
        """(stdout, the exception that ended the program or None)."""
        code = self.compile(instrumented)
        self.namespace = {"__name__": "__main__", "__file__": self.path, "__builtins__": builtins}
        out = io.StringIO()
        error = None
        with contextlib.redirect_stdout(out):
            try:
                exec(code, self.namespace)
            except BaseException as exc:  # noqa: BLE001 - the program's ending is the result
                error = exc
        # Invariant of every run: each handler that was entered has forgotten its failure state.
        assert not self.runtime._failures, f"failure states left open: {self.runtime._failures}"
        return out.getvalue(), error


def program_traceback(error) -> str:
    """The traceback text from the program's own frames on (this file's exec frame dropped)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))
