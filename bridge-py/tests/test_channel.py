"""The bridge's end of the control channel: framing, end-of-stream, size cap, fork safety, and a
pause's terminal result written together with its pause_end."""

import json
import os
import socket
import struct
import unittest

from aiython_bridge import protocol
from aiython_bridge.channel import Channel, ChannelClosed
from aiython_bridge.protocol import ProtocolViolation


def frame(payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + payload


class ChannelTest(unittest.TestCase):
    def setUp(self):
        self.ours, self.theirs = socket.socketpair()
        self.channel = Channel(self.ours.fileno())

    def tearDown(self):
        self.ours.close()
        self.theirs.close()

    def test_send_writes_one_length_prefixed_json_frame(self):
        self.channel.send({"type": "exit", "status": 3, "text": "é"})
        header = self.theirs.recv(4)
        (length,) = struct.unpack(">I", header)
        body = self.theirs.recv(length)
        self.assertEqual(body, '{"type":"exit","status":3,"text":"é"}'.encode("utf-8"))

    def test_send_all_writes_its_frames_in_order_in_one_write(self):
        writes = []
        real_write = os.write
        os.write = lambda fd, data: writes.append(bytes(data)) or real_write(fd, data)
        try:
            self.channel.send_all([{"type": "result", "id": "o1", "ok": True, "value": 1}, {"type": "pause_end", "pause": "p1", "interrupted": False}])
        finally:
            os.write = real_write
        self.assertEqual(len(writes), 1)
        expected = frame(b'{"type":"result","id":"o1","ok":true,"value":1}') + frame(b'{"type":"pause_end","pause":"p1","interrupted":false}')
        self.assertEqual(writes[0], expected)
        self.assertEqual(self.theirs.recv(len(expected)), expected)

    def test_recv_reassembles_frames_split_across_reads(self):
        op = {"type": "op", "pause": "p1", "id": "o1", "op": "frames", "args": {"call_id": "c1"}}
        data = frame(json.dumps(op).encode()) + frame(b'{"type":"init","protocol":1,"ignored_signals":[1]}')
        for i in range(0, len(data), 3):
            self.theirs.sendall(data[i:i + 3])
        self.assertEqual(self.channel.recv(), op)
        self.assertEqual(self.channel.recv(), {"type": "init", "protocol": 1, "ignored_signals": [1]})

    def test_a_host_message_without_its_fields_or_of_an_unknown_type_is_a_violation(self):
        for body in (b'{"type":"op","pause":"p1"}', b'{"type":"pause","pause":"p1"}', b'{"type":"launch"}'):
            self.theirs.sendall(frame(body))
            with self.assertRaises(ProtocolViolation):
                self.channel.recv()

    def test_zero_length_frame_is_a_clean_end_of_stream(self):
        self.theirs.sendall(struct.pack(">I", 0))
        with self.assertRaises(ChannelClosed) as caught:
            self.channel.recv()
        self.assertTrue(caught.exception.clean)

    def test_close_without_end_of_stream_is_not_clean(self):
        self.theirs.close()
        with self.assertRaises(ChannelClosed) as caught:
            self.channel.recv()
        self.assertFalse(caught.exception.clean)

    def test_oversize_frame_is_a_protocol_violation(self):
        self.theirs.sendall(struct.pack(">I", protocol.MAX_FRAME + 1))
        with self.assertRaises(protocol.ProtocolViolation):
            self.channel.recv()

    def test_a_message_in_pieces_is_joined_before_it_is_decoded(self):
        op = {"type": "op", "pause": "p1", "id": "o1", "op": "finish", "args": {"call_id": "c1", "raw_arguments": "é😀" * 5}}
        data = json.dumps(op, ensure_ascii=False).encode()
        # Cut inside a character: the pieces are joined as bytes.
        cuts = [0, 7, len(data) // 2 + 1, len(data)]
        for start, stop in zip(cuts, cuts[1:]):
            more = 0x80000000 if stop < len(data) else 0
            self.theirs.sendall(struct.pack(">I", (stop - start) | more) + data[start:stop])
        self.theirs.sendall(frame(b'{"type":"init","protocol":1,"ignored_signals":[]}'))
        self.assertEqual(self.channel.recv(), op)
        self.assertEqual(self.channel.recv()["type"], "init")

    def test_a_message_larger_than_a_piece_is_sent_in_pieces_no_frame_larger_than_a_piece(self):
        from aiython_bridge import channel as channel_module

        message = {"type": "result", "id": "o1", "ok": True, "value": "ab" * (channel_module.PIECE // 2 + 10)}
        expected = json.dumps(message, separators=(",", ":")).encode()
        self.theirs.setblocking(True)
        import threading

        sender = threading.Thread(target=self.channel.send, args=(message,))
        sender.start()
        received, headers = b"", []
        while True:
            (header,) = struct.unpack(">I", self._recv_exactly(4))
            length = header & 0x7FFFFFFF
            headers.append(header)
            received += self._recv_exactly(length)
            if not header & 0x80000000:
                break
        sender.join()
        self.assertEqual(received, expected)
        self.assertGreater(len(headers), 1)
        self.assertTrue(all(header & 0x7FFFFFFF <= channel_module.PIECE for header in headers))

    def _recv_exactly(self, n):
        data = b""
        while len(data) < n:
            data += self.theirs.recv(n - len(data))
        return data

    def test_a_message_past_max_message_is_a_violation_even_in_pieces_within_max_frame(self):
        from unittest import mock

        with mock.patch("aiython_bridge.channel.MAX_MESSAGE", 10):
            self.theirs.sendall(struct.pack(">I", 6 | 0x80000000) + b'{"type' + struct.pack(">I", 6) + b'":"x"}')
            with self.assertRaises(protocol.ProtocolViolation):
                self.channel.recv()

    def test_a_frame_without_a_typed_object_is_a_violation(self):
        self.theirs.sendall(frame(b"[1, 2]"))
        with self.assertRaises(protocol.ProtocolViolation):
            self.channel.recv()

    def test_nan_is_never_sent(self):
        with self.assertRaises(ValueError):
            self.channel.send({"type": "result", "value": float("nan")})

    def test_a_forked_child_never_writes(self):
        pid = os.fork()
        if pid == 0:
            self.channel.send({"type": "exit", "status": 0})
            self.channel.send_end_of_stream()
            os._exit(0)
        os.waitpid(pid, 0)
        self.theirs.setblocking(False)
        with self.assertRaises(BlockingIOError):
            self.theirs.recv(1)


if __name__ == "__main__":
    unittest.main()


class _RecordingServer:
    """A server whose channel records each write as the list of messages it carried."""

    def __init__(self):
        self.channel = self
        self.writes = []
        self.gone = False

    def send(self, message):
        self.writes.append([message])

    def send_all(self, messages):
        self.writes.append(list(messages))


class TerminalWriteTest(unittest.TestCase):
    def test_a_terminal_ops_result_and_the_pause_end_go_in_one_write_and_pause_end_only_once(self):
        import sys

        from aiython_bridge.pauses.pause import Pause

        server = _RecordingServer()
        info = {"id": "main.py:1", "span": {"line": 1, "column": 0, "end_line": 1, "end_column": 1}, "statement": "x"}
        pause = Pause(server, info, sys._getframe(), {"project_root": None})
        try:
            pause.handle({"type": "op", "pause": pause.id, "id": "o1", "op": "frames", "args": {}})
            done, _ = pause.handle({"type": "op", "pause": pause.id, "id": "o2", "op": "finish", "args": {"outcome": {"kind": "none"}}})
            pause.ended()
        finally:
            pause.close()
        self.assertTrue(done)
        self.assertEqual([[m["type"] for m in write] for write in server.writes], [["result"], ["result", "pause_end"]])
        result, end = server.writes[1]
        self.assertEqual((result["id"], result["ok"]), ("o2", True))
        self.assertEqual(end, {"type": "pause_end", "pause": pause.id, "interrupted": False})
