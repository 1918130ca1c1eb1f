"""The program's side of the collaboration mailbox (SPEC §8): `aiython.group()` and `join()`.

The host holds the groups and queues for every process of the run (src/mailbox/broker.ts); each
call here is one `mail` request (docs/protocol.md, "The mailbox"). A group's holder invites
participants by name; each ticket is a string holding that participant's own secret, so it can
go to a thread, a task or a process (an argument, a queue, a file). `join(ticket)` gives a
Member, and marks the calling thread or asyncio task as joined: a block or recovery it reaches
gets the mailbox tools (pause.py sends its member handle). Payloads are JSON values.
"""

import contextvars
import json

from aiython_bridge import modules, protocol
from aiython_bridge.errors import MailboxError

__all__ = ["Group", "Member", "current_member", "group", "join"]

_joined = contextvars.ContextVar("aiython_mailbox_member", default=None)


def current_member():
    """The member handle joined by this thread or task, or None (pause.py)."""
    member = _joined.get()
    return member._handle if member is not None else None


def _server():
    server = modules.load("aiython_bridge.processes").current_server()
    if server is None or server.gone:
        raise MailboxError("the run has ended: the mailbox is gone")
    return server


def _message(op, args):
    return {"type": protocol.MAIL, "op": op, "args": args}


def _value(reply):
    if reply.get("ok"):
        return reply.get("value")
    error = reply.get("error") or {}
    if error.get("type") == "bridge_exited":
        raise MailboxError("the run has ended: the mailbox is gone")
    raise MailboxError(error.get("message", "the mailbox refused the call"))


def _call(op, **args):
    # The mailbox's peers may be spawned processes: they must join the run (processes/spawned.py).
    modules.load("aiython_bridge.processes.spawned").ensure_installed()
    return _value(_server().request(_message(op, args)))


def group():
    """A new group; its holder invites participants with `invite(name)`."""
    value = _call("group")
    return Group(value["group"], value["token"])


def join(ticket):
    """Joins the group of `ticket` (from `Group.invite`) as the participant it names."""
    if not isinstance(ticket, str):
        raise MailboxError("join() takes the ticket string that invite(name) returned, got %s" % type(ticket).__name__)
    value = _call("join", ticket=ticket)
    member = Member(value["member"], value["name"])
    _joined.set(member)
    return member


class Group:
    __module__ = "aiython"

    def __init__(self, group_id, token):
        self._group, self._token = group_id, token

    def invite(self, name):
        """A ticket for the participant `name`: pass it to the thread, task or process that joins."""
        if not isinstance(name, str):
            raise MailboxError("a participant name is a string, got %s" % type(name).__name__)
        return _call("invite", group=self._group, token=self._token, name=name)["ticket"]

    def __repr__(self):
        return "<aiython.Group>"


class Member:
    __module__ = "aiython"

    def __init__(self, handle, name):
        self._handle, self.name = handle, name

    def send(self, to, payload, *, id=None):
        """Sends a JSON value to the peer `to`; returns the message id (an `id` sent twice arrives once)."""
        try:
            text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise MailboxError("a payload must be a JSON value (dict, list, str, int, float, bool, None): %s" % exc) from None
        args = {"member": self._handle, "to": to, "payload": text}
        if id is not None:
            args["message_id"] = str(id)
        return _call("send", **args)["id"]

    def read(self, limit=None):
        """Takes up to `limit` unread messages, oldest first: [{"id", "from", "payload"}]."""
        value = _call("read", member=self._handle, limit=limit)
        return [{"id": m["id"], "from": m["from"], "payload": json.loads(m["payload"])} for m in value["messages"]]

    def pending(self):
        """How many messages wait to be read."""
        return _call("pending", member=self._handle)

    def peers(self):
        """The other participants' names."""
        return [peer["name"] for peer in _call("peers", member=self._handle)["peers"]]

    def wait(self, timeout=None):
        """Blocks until a message is unread (or `timeout` seconds pass); returns the unread count."""
        return _call("wait", member=self._handle, timeout=timeout)

    async def wait_async(self, timeout=None):
        """`wait` for asyncio: the event loop goes on while the host waits."""
        import asyncio

        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(reply):
            if not future.done():
                future.set_result(reply)

        def answered(reply):  # on the reader thread
            try:
                loop.call_soon_threadsafe(settle, reply)
            except RuntimeError:  # the loop has closed: nobody waits any more
                pass

        _server().request_async(_message("wait", {"member": self._handle, "timeout": timeout}), answered)
        return _value(await future)

    def __repr__(self):
        return "<aiython.Member %r>" % self.name
