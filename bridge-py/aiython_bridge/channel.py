"""The bridge's end of the control channel: length-prefixed JSON frames over one socket fd.

A message larger than one piece goes as several frames, each but the last marked "more" in its
header's top bit (docs/protocol.md, Framing): no frame is larger than MAX_FRAME, and a model's
large answer crosses without a frame that holds it whole.

Sending is thread-safe (one lock). Receiving happens on one thread at a time: the server's
main thread before the program starts, then the reader thread (reader.py). Descriptors are
close-on-exec and closed in children made by os.fork(), so nothing the program starts can write
on the channel.
"""

import _thread
import os

from aiython_bridge.json_codec import decode, encode
from aiython_bridge.protocol import MAX_FRAME, MAX_MESSAGE, ProtocolViolation, check_host_message

__all__ = ["PIECE", "Channel", "ChannelClosed"]

# The frame header: a 4-byte big-endian length (int.to_bytes: the struct module is not imported)
_HEADER_BYTES = 4
# The header's top bit: this frame is a piece of a message that the next frame goes on with.
_MORE = 0x80000000
# The largest piece this side sends (any size up to MAX_FRAME is valid).
PIECE = 8 * 1024 * 1024


def _frame(message):
    text = encode(message)
    try:
        payload = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (e.g. from os.fsdecode): escape them instead
        payload = encode(message, ensure_ascii=True).encode("ascii")
    return b"".join(_frames(payload))


def _frames(payload):
    """A message's frames: a header and a piece of `payload` each, the pieces views of it."""
    size = len(payload)
    if size > MAX_MESSAGE:
        raise ProtocolViolation("outgoing message of %d bytes exceeds the %d-byte cap" % (size, MAX_MESSAGE))
    if size <= PIECE:
        return [size.to_bytes(_HEADER_BYTES, "big"), payload]
    view, parts = memoryview(payload), []
    for start in range(0, size, PIECE):
        piece = view[start:start + PIECE]
        more = _MORE if start + PIECE < size else 0
        parts += [(len(piece) | more).to_bytes(_HEADER_BYTES, "big"), piece]
    return parts


class ChannelClosed(Exception):
    """The host closed the channel (with or without an end-of-stream marker)."""

    def __init__(self, clean):
        super().__init__("control channel closed" + ("" if clean else " without end-of-stream"))
        self.clean = clean


class Channel:
    def __init__(self, fd):
        self.fd = fd
        self._send_lock = _thread.allocate_lock()
        self._buffer = bytearray()
        self.closed = False
        self.owner_pid = os.getpid()

    def send(self, message):
        self._write(_frame(message))

    def send_encoded(self, pieces):
        """A message given as the pieces of its JSON text, as send() would encode it (a large
        answer built as text, recovery/listing.py); the list is emptied, so that the message is
        held once at a time: pieces, then text, then UTF-8."""
        text = "".join(pieces)
        pieces.clear()
        try:
            payload = text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: escape them, as send() does
            payload = encode(decode(text), ensure_ascii=True).encode("ascii")
        del text
        self._write(*_frames(payload))

    def send_all(self, messages):
        """Several messages in one write, in order (the peer reads them as if sent one by one)."""
        self._write(b"".join(_frame(message) for message in messages))

    def send_end_of_stream(self):
        self._write(bytes(_HEADER_BYTES))

    def _write(self, *chunks):
        if self.closed or os.getpid() != self.owner_pid:
            return
        with self._send_lock:
            for data in chunks:
                view = memoryview(data)
                while view:
                    n = os.write(self.fd, view)
                    view = view[n:]

    def _read_exact(self, n):
        while len(self._buffer) < n:
            chunk = os.read(self.fd, max(65536, n - len(self._buffer)))
            if not chunk:
                raise ChannelClosed(clean=False)
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def waiting(self):
        """Whether a message has arrived that recv() has not returned yet (select is loaded only
        here: `--explain`'s bridge asks, a program's never does)."""
        if self._buffer:
            return True
        import select

        return bool(select.select([self.fd], [], [], 0)[0])

    def recv(self):
        """Next message, or raise ChannelClosed."""
        pieces = []
        size = 0
        while True:
            header = int.from_bytes(self._read_exact(_HEADER_BYTES), "big")
            more = header & _MORE
            length = header & ~_MORE
            if header == 0 and not pieces:
                raise ChannelClosed(clean=True)
            if length > MAX_FRAME:
                raise ProtocolViolation("incoming frame of %d bytes exceeds the %d-byte cap" % (length, MAX_FRAME))
            size += length
            if size > MAX_MESSAGE:
                raise ProtocolViolation("incoming message of %d bytes exceeds the %d-byte cap" % (size, MAX_MESSAGE))
            pieces.append(self._read_exact(length))
            if not more:
                break
        data = pieces[0] if len(pieces) == 1 else b"".join(pieces)
        del pieces
        text = data.decode("utf-8")
        del data  # a large message is held once at a time: bytes, then text, then objects
        message = decode(text)
        del text
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise ProtocolViolation("a frame did not hold a message object with a type")
        return check_host_message(message)

    def close_in_child(self):
        """After os.fork() in the program: the child must never touch the parent's channel."""
        self.closed = True
        try:
            os.close(self.fd)
        except OSError:
            pass
