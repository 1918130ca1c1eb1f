"""One file's checkpoints as the runtime sees them (checkpoints.FileCheckpoints' K → Checkpoint).

A file's table is what instrument.py resolved (a list of dicts, in index order), or the same
list marshal'd, as the preparation cache keeps it (program_code.Compiled.packed_checkpoints):
a module with a hundred checkpoints is imported without reading a single one of them. A
Checkpoint is made the first time its statement fails, and then kept (the runtime keys a
failure's state by it), and the packed list is unmarshalled then, once.
"""

from __future__ import annotations

import marshal

__all__ = ["Checkpoint", "CheckpointTable"]


class Checkpoint:
    __slots__ = ("id", "filename", "statement", "span", "target", "annotation", "retry_allowed", "compound")

    def __init__(self, filename: str, info: dict):
        self.filename = filename
        self.id, self.statement, self.span = info["id"], info["statement"], info["span"]
        self.target, self.annotation = info.get("target"), info.get("annotation")
        self.retry_allowed = bool(info.get("retry_allowed"))
        self.compound = bool(info.get("compound"))


class CheckpointTable:
    """`table[K]`: the file's Checkpoint K, made on first use; `infos` a list of dicts or its
    marshal'd bytes (read from a cache entry whose checksum held: bytes this code wrote)."""

    __slots__ = ("filename", "_infos", "_made")

    def __init__(self, filename: str, infos):
        self.filename = filename
        self._infos = infos
        self._made: dict[int, Checkpoint] = {}

    def __getitem__(self, index: int) -> Checkpoint:
        checkpoint = self._made.get(index)
        if checkpoint is None:
            # setdefault: two threads failing at K at once get the same one (state is keyed by it)
            checkpoint = self._made.setdefault(index, Checkpoint(self.filename, self.infos()[index]))
        return checkpoint

    def __len__(self) -> int:
        return len(self.infos())

    def infos(self) -> list:
        if type(self._infos) is bytes:
            self._infos = marshal.loads(self._infos)
        return self._infos

    def all(self) -> list[Checkpoint]:
        return [self[index] for index in range(len(self))]
