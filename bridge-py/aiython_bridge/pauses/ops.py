"""The op side of a pause: running one `op` message on the paused frame's thread and answering it.

PauseOps is the base of pause.py's Pause (and so of recovery/pause.py's RecoveryPause): it runs
an op against the pause's Invocation (frameops/), with the source guard watching when program
code may run (SPEC §9), answers with a `result` (the terminal op's result and the pause's end in
one write), and turns a `finish` outcome into the block's value, type-checked by contracts/
(SPEC §5.2, §6). What a pause is, how it is announced and served, and the registry of open pauses
are pause.py's.
"""


from aiython_bridge import contracts, guard, json_codec, protocol
from aiython_bridge.errors import AIBudgetError, AIError, TypeContractError
from aiython_bridge.frameops import ToolError, interrupt, plan_values

__all__ = ["Failed", "NO_TYPE", "PauseOps", "failure_error"]

NO_TYPE = object()
_UNGUARDED_OPS = ("fail", "resume", "restrict", "inspect", "frames", "get_frame_code")  # no program code runs


def failure_error(args):
    """The exception a `fail` op means: AIBudgetError when a budget refused a request (SPEC §13)."""
    cls = AIBudgetError if args.get("budget") else AIError
    return cls(args.get("reason") or "the AI block failed")


class Failed:
    def __init__(self, error):
        self.error = error


class PauseOps:
    """What Pause needs for its ops: server, id, invocation, target, expected, denied, end_message."""

    def handle(self, message):
        """Run one op; answer it; return (done, value-or-Failed)."""
        op = message.get("op")
        args = message.get("args") or {}
        try:
            done, value, result = self.run_op(op, args) if op in _UNGUARDED_OPS else self._guarded_run(op, args)
        except ToolError as exc:
            return self._answer(message, ok=False, error={"type": exc.error_type, "message": exc.message})
        except TypeContractError as exc:
            return self._answer(message, ok=False, error={"type": "TypeContractError", "message": str(exc)})
        except (KeyError, TypeError, ValueError) as exc:
            return self._answer(message, ok=False, error={"type": type(exc).__name__, "message": "bad arguments for %s: %s" % (op, exc)})
        except RecursionError:  # the bridge's own recursion over a deep value (SPEC §9: a tool error, never a crash)
            return self._answer(message, ok=False, error={"type": "RecursionError", "message": (
                "the value nests too deeply to read or check here; send a flatter value, or build it with code in the frame")})
        if done:
            # The terminal op's result and the pause's end go in one write: one wake-up of the host.
            self.end_sent = True
            self.server.channel.send_all([self._reply(message, ok=True, value=result), self.end_message(False)])
        else:
            self._answer(message, ok=True, value=result)
        return done, value

    def _guarded_run(self, op, args):
        """run_op with the source guard watching this thread (SPEC §9): a refused action fails the
        op with the refusal, even when the model's code caught the exception."""
        server = self.server
        channel_fd = getattr(server.channel, "fd", None)
        watch = guard.Watch(self.invocation.project_root, deny_writes="write_filesystem" in self.denied,
                            keep_fds=(channel_fd,) if type(channel_fd) is int else ())
        try:
            with guard.watching(watch), interrupt.running(self.id):
                outcome = self.run_op(op, args)
        except interrupt.ToolInterrupted:
            raise ToolError("ToolInterrupted", f"{op} was interrupted: it ran past its time (effects it made before stay)") from None
        except guard.GuardUnavailable as exc:
            raise ToolError("GuardUnavailable", str(exc)) from None
        except Exception:
            if watch.refusals:
                raise _refusal_error(watch.refusals) from None
            raise
        if watch.refusals:
            raise _refusal_error(watch.refusals)
        return outcome

    def _answer(self, message, ok, value=None, error=None):
        self.server.channel.send(self._reply(message, ok, value, error))
        return False, None

    def _reply(self, message, ok, value=None, error=None):
        reply = {"type": protocol.RESULT, "id": message.get("id"), "pause": self.id, "ok": ok}
        if ok:
            reply["value"] = value
        else:
            reply["error"] = error
        return reply

    def run_op(self, op, args):
        inv = self.invocation
        call_id = args.get("call_id")
        if op in ("evaluate", "get_binding"):
            key = call_id or args.get("result_id")
            if op == "evaluate":
                result = inv.evaluate(args["code"], result_id=key)
            else:
                result = inv.get_binding(args["name"], result_id=key)
            if key is not None and args.get("result_id") and args["result_id"] != key:
                inv.remember(args["result_id"], inv.recall(key))
            return False, None, result
        if op == "execute":
            return False, None, inv.execute(args["code"])
        if op == "set_binding":
            obj = inv.lookup_handle(args["handle"])
            return False, None, inv.set_binding(args["name"], obj)
        if op == "inspect":
            return False, None, inv.inspect(args["handle"], args.get("depth", 1), args.get("limit", 20))
        if op == "get_frame_code":
            return False, None, inv.get_frame_code(args.get("frame", "active"))
        if op == "frames":
            return False, None, inv.frames()
        if op == "read_values":
            return False, None, plan_values.read_values(inv, args["refs"])
        if op == "hold_values":
            return False, None, plan_values.hold_values(inv, args["values_json"])
        if op == "finish":
            inv.check_typed_names_before_end()
            value = self.outcome_value(args)
            return True, value, {"ok": True}
        if op == "fail":
            return True, Failed(failure_error(args)), {"ok": True}
        if op == "restrict":
            self.denied = frozenset(args["denied"])
            return False, None, {"ok": True}
        raise ToolError("UnknownOperation", "no operation %r" % (op,))

    def outcome_value(self, args):
        outcome = args["outcome"]
        raw = args.get("raw_arguments")
        kind = outcome["kind"]
        path = self.target or "value"
        inv = self.invocation
        if kind == "none":
            return None
        if kind == "literal":
            # The value is read from the model's own text, which the host sends in place of it (once,
            # however large): the host's JSON parser cannot tell 3.0 from 3; Python's can (SPEC §6).
            value = json_codec.decode(raw)["outcome"]["value"] if isinstance(raw, str) else outcome["value"]
            if self.expected is NO_TYPE:
                return value
            return contracts.check_value(value, self.expected, path)
        if kind == "expression":
            inv.evaluate(outcome["code"], result_id="\x00outcome")
            obj = inv.recall("\x00outcome")
        elif kind == "reference":
            obj = inv.recall(outcome["id"])
        elif kind == "handle":
            obj = inv.lookup_handle(outcome["id"])
        else:
            raise ToolError("ValueError", "outcome kind %r cannot end a block here" % (kind,))
        if self.expected is NO_TYPE:
            return obj
        return contracts.check_object(obj, self.expected, path)


def _refusal_error(refusals):
    """The tool error for the guard's refusals: the first one's kind and message."""
    first = refusals[0]
    more = f" ({len(refusals) - 1} more action(s) refused)" if len(refusals) > 1 else ""
    kind = "PermissionDenied" if first.kind == "permission" else "GuardError"
    return ToolError(kind, first.message + more)
