"""A resolved rule document: plain data plus the place (file, line, column) of every node.

``Doc.pos(path)`` gives the ``Pos`` of the node at a path such as ``("hand", "deal", "hand", "4")``,
through any number of ``extends``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Pos
from .limits import Limits

Path_ = tuple


@dataclass
class Doc:
    """A resolved rule document: plain data plus the position of every node."""

    data: dict
    positions: dict[Path_, Pos]
    file: str
    id: str
    chain: list[str] = field(default_factory=list)  # files read, the file itself first
    limits: Limits = field(default_factory=Limits)  # the limits it was read with, for the compiler
    options: list[str] = field(default_factory=list)  # options switched on
    defaults: dict[str, str] = field(default_factory=dict)  # file -> its default source id

    def pos(self, path: Path_) -> Pos:
        """The position of the node at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path:
            p = self.positions.get(path)
            if p is not None:
                return p
            path = path[:-1]
        return self.positions.get((), Pos(self.file, 1, 1))

    def key_pos(self, path: Path_) -> Pos:
        return self.positions.get(tuple(path) + ("@key",)) or self.pos(path)

    def cites(self):
        """Every citation: (path of the cite, source id or None, quote). A bare
        quote belongs to the default source of the file that wrote it."""
        for path, node in walk(self.data):
            if not isinstance(node, dict) or "cite" not in node:
                continue
            raw = node["cite"]
            items = raw if isinstance(raw, list) else [raw]
            for i, c in enumerate(items):
                cpath = path + ("cite",) + ((i,) if isinstance(raw, list) else ())
                if isinstance(c, str):
                    yield cpath, self.defaults.get(self.pos(cpath).file), c
                elif isinstance(c, dict):
                    yield cpath, c.get("source"), c.get("quote", "")

    def sources(self) -> list[str]:
        """The ids of the sources this document cites."""
        return sorted({s for _, s, _ in self.cites() if s})


def walk(node, path: tuple = ()):
    """Every node of a document with its path, depth first."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))
