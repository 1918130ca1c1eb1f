"""The bridge's side of its link to the host (docs/protocol.md): the one channel, and what
travels on it.

- server.py: the control loop before the program starts, then the reader thread; requests to
  the host and their answers, signal notices, the fork hooks;
- channel.py: framing (a 4-byte length, a size cap, a distinct end of stream) on the control
  socket;
- protocol.py: the mirror of the host's message types (test/protocol-agreement.test.ts);
- json_codec.py: the channel's JSON, from `_json` directly, without importing the json package.

Nothing is imported here: importers name the module they use (this file runs at every start).
"""
