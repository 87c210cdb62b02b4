"""Source spans of IR nodes, kept beside the IR (never inside it, so the schema stays clean):
`Spans` maps (id(node), key) to a `Span`, for .uno, YAML and JSON alike."""
from __future__ import annotations

from unorules.errors import Span


class Spans:
    """Source spans of IR nodes: `spans.at(node)` or `spans.at(node, key)`."""

    def __init__(self):
        self._table: dict[tuple[int, object], Span] = {}
        self._keep: list = []      # keep nodes alive so ids stay unique

    def put(self, node, span: Span | None, key=None):
        if span is not None:
            self._table[(id(node), key)] = span
            self._keep.append(node)

    def at(self, node, key=None) -> Span | None:
        return self._table.get((id(node), key)) or (self._table.get((id(node), None)) if key is not None else None)

    def find(self, root, path, last_is_key: bool = False) -> Span | None:
        """The most specific span along a JSON path (as jsonschema's `absolute_path`); with
        `last_is_key`, the span of the last key itself rather than of its value."""
        best = self.at(root)
        node = root
        for i, key in enumerate(path):
            if last_is_key and i == len(path) - 1:
                return self._table.get((id(node), ("key", key))) or self.at(node, key) or best
            here = self.at(node, key)
            if here:
                best = here
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
            here = self.at(node)
            if here:
                best = here
        return best

    def merge(self, other: "Spans"):
        self._table.update(other._table)
        self._keep.extend(other._keep)
