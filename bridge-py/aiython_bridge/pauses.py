"""Pauses: a thread (or an asyncio task) stopped at an AI block while the host runs the model loop.

A pause sends the host a `pause` message with the request content of SPEC §5.1, then serves
the host's `op` messages on the thread that owns the frame (a blocking wait for threads, loop
callbacks for coroutines, so the event loop keeps running) until a terminal op succeeds:
`finish` (the block's value, type-checked by contracts/), or `fail` (AIError at the block's
line). Recovery pauses (recovery/pause.py, SPEC §4.2) reuse this machinery through
serve()/serve_async() with mode "recovery" and the terminal `recover`. Several pauses may be in flight at once; each has its own id and inbox, and the reader
thread routes messages by that id (docs/protocol.md).
"""

import _thread
import itertools
import json
import os
import sys
from queue import Empty, SimpleQueue

from aiython_bridge import contracts, guard, modules, protocol
from aiython_bridge.errors import AIBudgetError, AIError, TypeContractError, UnsupportedAnnotation
from aiython_bridge.frameops import Invocation, ToolError, plan_values
from aiython_bridge.paths import display_path

_ids = itertools.count(1)
_open_pauses = {}
_registry_lock = _thread.allocate_lock()
_NO_TYPE = object()
POLL_SECONDS = 0.25
_UNGUARDED_OPS = ("fail", "restrict", "inspect", "frames", "get_frame_code")  # no program code runs  # a blocked pause wakes this often so signal handlers (Ctrl-C) can run


def route(server, message):
    """Reader-thread entry: hand a pause message to its pause, or answer that it has ended."""
    pause = _open_pauses.get(message.get("pause"))
    if pause is not None:
        pause.deliver(message)
    elif message.get("type") == protocol.OP:
        server.channel.send({
            "type": protocol.RESULT, "id": message.get("id"), "pause": message.get("pause"), "ok": False,
            "error": {"type": "PauseEnded", "message": "this block has already resumed"},
        })


def failure_error(args):
    """The exception a `fail` op means: AIBudgetError when a budget refused a request (SPEC §13)."""
    cls = AIBudgetError if args.get("budget") else AIError
    return cls(args.get("reason") or "the AI block failed")


class _Failed:
    def __init__(self, error):
        self.error = error


def new_pause_id():
    return "p%d" % next(_ids)


class Pause:
    mode = "syntax"  # recovery/pause.py's RecoveryPause: "recovery" (SPEC §4.2)
    denied = frozenset()  # permissions the invocation's profile does not grant (`restrict`)
    _end_sent = False  # pause_end is sent once

    def __init__(self, server, info, frame, options):
        self.server = server
        self.info = info
        self.id = new_pause_id()
        self.target = info.get("target")
        self.invocation = Invocation(
            frame, line=info["span"]["line"], project_root=options.get("project_root"),
            context_values=options.get("context_values", True),
        )
        self.expected = _NO_TYPE
        text = info.get("output_type")
        if text:
            try:
                self.expected = contracts.resolve_annotation(text, frame.f_globals, frame.f_locals)
                self.schema = contracts.json_schema(self.expected, annotation=text)
            except UnsupportedAnnotation as exc:
                self.invocation.close()
                raise AIError("%s: the annotation %s of this block cannot be used: %s" % (info["id"], text, exc)) from None
        else:
            self.schema = None

    def request(self):
        info = self.info
        inv = self.invocation
        span = info["span"]
        related = inv.related_objects(info["statement"])
        return {
            "mode": "syntax",
            "block_id": info["id"],
            "statement": info["statement"],
            "location": {
                # Project-relative: stable across checkouts (journal keys) and no folder layout sent.
                "file": display_path(inv.frame.f_code.co_filename, inv.project_root),
                "line": span["line"], "column": span["column"],
                "end_line": span["end_line"], "end_column": span["end_column"],
                "function": info.get("function"),
            },
            "target": self.target,
            "output_type": contracts.type_repr(self.expected) if self.expected is not _NO_TYPE else None,
            "output_schema": self.schema,
            "requires_result": bool(info.get("requires_result")),
            "code_context": inv.code_context(),
            "related_objects": related,
            "frame_objects": _other_frame_objects(inv.frame_objects(), related),
            "hints": {"prompts": list((info.get("directive") or {}).get("prompts") or [])},
            "directive": info.get("directive") or {},
        }

    # -- operations --------------------------------------------------------------------------
    def handle(self, message):
        """Run one op; answer it; return (done, value-or-_Failed)."""
        op = message.get("op")
        args = message.get("args") or {}
        try:
            done, value, result = self._run(op, args) if op in _UNGUARDED_OPS else self._guarded_run(op, args)
        except ToolError as exc:
            return self._answer(message, ok=False, error={"type": exc.error_type, "message": exc.message})
        except TypeContractError as exc:
            return self._answer(message, ok=False, error={"type": "TypeContractError", "message": str(exc)})
        except (KeyError, TypeError, ValueError) as exc:
            return self._answer(message, ok=False, error={"type": type(exc).__name__, "message": "bad arguments for %s: %s" % (op, exc)})
        if done:
            # The terminal op's result and the pause's end go in one write: one wake-up of the host.
            self._end_sent = True
            self.server.channel.send_all([self._reply(message, ok=True, value=result), self._end_message(False)])
        else:
            self._answer(message, ok=True, value=result)
        return done, value

    def _guarded_run(self, op, args):
        """_run with the source guard watching this thread (SPEC §9): a refused action fails the
        op with the refusal, even when the model's code caught the exception."""
        watch = guard.Watch(self.invocation.project_root, deny_writes="write_filesystem" in self.denied)
        try:
            with guard.watching(watch):
                outcome = self._run(op, args)
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

    def _run(self, op, args):
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
            value = self._outcome_value(args)
            return True, value, {"ok": True}
        if op == "fail":
            return True, _Failed(failure_error(args)), {"ok": True}
        if op == "restrict":
            self.denied = frozenset(args["denied"])
            return False, None, {"ok": True}
        raise ToolError("UnknownOperation", "no operation %r" % (op,))

    def _outcome_value(self, args):
        outcome = args["outcome"]
        raw = args.get("raw_arguments")
        kind = outcome["kind"]
        path = self.target or "value"
        inv = self.invocation
        if kind == "none":
            return None
        if kind == "literal":
            value = outcome["value"]
            if isinstance(raw, str):
                # The host's JSON parser cannot tell 3.0 from 3; Python's can (SPEC §6: int is not float).
                value = json.loads(raw)["outcome"]["value"]
            if self.expected is _NO_TYPE:
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
        if self.expected is _NO_TYPE:
            return obj
        return contracts.check_object(obj, self.expected, path)

    def close(self):
        with _registry_lock:
            _open_pauses.pop(self.id, None)
        self.invocation.close()

    def announce(self, deliver):
        self.deliver = deliver
        with _registry_lock:
            _open_pauses[self.id] = self
        request = self.request()
        mailbox = modules.loaded("aiython_bridge.mailbox")  # SPEC §8: a joined thread or task
        member = mailbox.current_member() if mailbox is not None else None
        if member is not None:
            request["mailbox"] = {"member": member}
        self.server.channel.send({"type": protocol.PAUSE, "pause": self.id, "mode": self.mode, "request": request})
        if self.server.gone:
            end_all("the run ended before this finished")

    def ended(self, interrupted=False):
        if self._end_sent:  # with the terminal op's result (handle)
            return
        self._end_sent = True
        try:
            self.server.channel.send(self._end_message(interrupted))
        except OSError:
            pass

    def _end_message(self, interrupted):
        return {"type": protocol.PAUSE_END, "pause": self.id, "interrupted": interrupted}


def _refusal_error(refusals):
    """The tool error for the guard's refusals: the first one's kind and message."""
    first = refusals[0]
    more = f" ({len(refusals) - 1} more action(s) refused)" if len(refusals) > 1 else ""
    kind = "PermissionDenied" if first.kind == "permission" else "GuardError"
    return ToolError(kind, first.message + more)
def after_fork_in_child():
    """The parent's other threads do not exist in a forked child: neither do their pauses."""
    global _registry_lock
    _registry_lock = _thread.allocate_lock()
    _open_pauses.clear()


def end_all(reason):
    """The host has gone (a child after the run ended): every open pause fails with `reason`."""
    with _registry_lock:
        pauses = list(_open_pauses.values())
    for pause in pauses:
        pause.deliver({"type": protocol.OP, "id": None, "pause": pause.id, "op": "fail", "args": {"reason": reason}})


def _other_frame_objects(frame_objects, related):
    """Frame objects minus what related_objects already describes, and minus modules, functions,
    classes and typing forms (the code context shows where they come from): keeps requests small
    (SPEC §12: a one-line block's request stays under 6 KB)."""
    named = {entry.get("name") for entry in related}
    return [
        entry for entry in frame_objects
        if entry.get("name") not in named
        and entry.get("kind") not in ("module", "function", "class")
        and entry.get("module") != "typing"
    ]


def _finish(value):
    if isinstance(value, _Failed):
        raise value.error
    return value


def pause_for_block(server, info, frame, options):
    return _finish(serve(Pause(server, info, frame, options)))


async def pause_for_block_async(server, info, frame, options):
    return _finish(await serve_async(Pause(server, info, frame, options)))


def serve(pause):
    """Announce `pause` and serve its ops on this thread until a terminal op; its raw value."""
    inbox = SimpleQueue()
    try:
        pause.announce(inbox.put)
        while True:
            try:
                message = inbox.get(timeout=POLL_SECONDS)
            except Empty:
                continue
            done, value = pause.handle(message)
            if done:
                pause.ended()
                break
    except BaseException:
        pause.ended(interrupted=True)
        raise
    finally:
        pause.close()
    return value


async def serve_async(pause):
    """serve() for a pause in a coroutine: ops run as event-loop callbacks between other tasks."""
    import asyncio

    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def on_message(message):  # runs on the event loop's thread, between other tasks' steps
        if future.done():
            return
        try:
            done, value = pause.handle(message)
        except BaseException as exc:  # noqa: BLE001 - delivered to the awaiting task
            future.set_exception(exc)
            return
        if done:
            future.set_result(value)

    try:
        pause.announce(lambda message: loop.call_soon_threadsafe(on_message, message))
        value = await future
        pause.ended()
    except BaseException:
        pause.ended(interrupted=True)
        raise
    finally:
        pause.close()
    return value
