"""One action the source guard refused (SPEC §9), recorded on the Watch it was judged by.

`kind` says what it protected: "source" (the program's files, configuration, installed packages,
aiython's state), "process" (starting one), "run" (ending or breaking the run: its process, its
standard streams and channel, a signal to it), "reach" (what would let a tool's code escape the
guard: ctypes, gc's views of every object, the bridge's own functions, raw threads), or
"permission" (a write the profile does not grant: write_filesystem). pauses/ops.py reports the
first refusal of an operation as the tool error (`PermissionDenied` for "permission", else
`GuardError`), even when the model's code caught the GuardError.
"""


__all__ = ["Refusal"]


class Refusal:
    """`quiet`: not recorded on the Watch (the import system's own bytecode-cache write, which it
    gives up without a word: the tool is not to blame for it)."""

    __slots__ = ("watch", "kind", "message", "quiet")

    def __init__(self, watch, kind: str, message: str, *, quiet: bool = False):
        self.watch = watch
        self.kind = kind
        self.message = message
        self.quiet = quiet
