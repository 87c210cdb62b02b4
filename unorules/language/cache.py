"""What the front end keeps between runs, in a folder only this user can write: the grammar's
LALR tables (parser.py) and each file's checked IR, by the file's content.

A file whose text parsed without a problem and passed the JSON Schema is kept as JSON (its IR and
its source spans, by path), under a key made of its text, its name, and a fingerprint of the front
end that read it (the grammar, the schema, and the size and time of every module of the language
package). The next run that meets the same text in the same file skips the parser and the schema,
and imports neither Lark nor jsonschema when no file is new: `validate official` a second time is
a matter of reading two small JSON files. The merged rulebook is checked afresh every time.

Nothing here is a pickle, and nothing is trusted from a folder another user could write. Set
UNORULES_NO_CACHE=1 to read everything afresh (and keep nothing).
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from unorules.errors import Span

FORMAT = 1                 # the layout of a kept file; another number is another key
MAX_ENTRIES = 256          # kept files; the least recently used go first
_PACKAGE = Path(__file__).resolve().parent


def folder() -> Path | None:
    """The cache folder (made if need be), or None: no home folder, not writable, another user's or
    writable by others (Lark's tables are a pickle), or UNORULES_NO_CACHE is set."""
    if os.environ.get("UNORULES_NO_CACHE"):
        return None
    try:
        base = os.environ.get("XDG_CACHE_HOME") or (Path.home() / ".cache")
    except (RuntimeError, KeyError):        # no home folder: no cache
        return None
    place = Path(base) / "unorules"
    try:
        place.mkdir(parents=True, exist_ok=True, mode=0o700)
        st = place.stat()
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
            return None                     # not ours alone: do not trust what is in it
    except OSError:
        return None
    return place


@functools.cache
def _front_end() -> str:
    """A fingerprint of everything that turns a file's text into checked IR."""
    from .resources import grammar_file, schema_file
    h = hashlib.sha256(str(FORMAT).encode())
    for p in sorted([*_PACKAGE.rglob("*.py"), _PACKAGE.parent / "errors.py", grammar_file(), schema_file()]):
        try:
            st = p.stat()
        except OSError:
            continue
        h.update(f"{p.relative_to(_PACKAGE.parent) if p.is_relative_to(_PACKAGE.parent) else p.name}"
                 f"\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def _entry(place: Path, file: str, text: str) -> Path:
    h = hashlib.sha256(_front_end().encode())
    h.update(file.encode("utf-8", "surrogatepass") + b"\0" + text.encode("utf-8", "surrogatepass"))
    return place / f"ir-{h.hexdigest()[:32]}.json"


def _span_table(ir, spans) -> list:
    """The spans of the IR's nodes, by each node's path from the root: [[path, key, span], ...]."""
    by_id: dict[int, list] = {}
    for (node_id, key), span in spans._table.items():
        by_id.setdefault(node_id, []).append((key, span))
    out = []
    stack = [(ir, [])]
    while stack:
        node, path = stack.pop()
        for key, s in by_id.pop(id(node), ()):
            encoded = ["key", key[1]] if isinstance(key, tuple) else key
            out.append([path, encoded, [s.line, s.column, s.end_line, s.end_column]])
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((v, path + [k]) for k, v in children if isinstance(v, (dict, list)))
    return out


def _spans_of(ir, table: list):
    from .spans import Spans
    spans = Spans()
    for path, key, (line, column, end_line, end_column) in table:
        node = ir
        for step in path:
            node = node[step]
        spans.put(node, Span(line, column, end_line, end_column), tuple(key) if isinstance(key, list) else key)
    return spans


def recall(file: str, text: str):
    """(ir, spans) of a file kept before with this very text and name, or None."""
    place = folder()
    if place is None:
        return None
    entry = _entry(place, file, text)
    try:
        kept = json.loads(entry.read_text("utf-8"))
        ir, spans = kept["ir"], _spans_of(kept["ir"], kept["spans"])
        os.utime(entry)                     # recently used
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None                         # none kept, or not readable as kept: read the file afresh
    return ir, spans


def keep(file: str, text: str, ir, spans) -> None:
    """Keep a file's checked IR; never fails (a cache that cannot be written is no cache)."""
    place = folder()
    if place is None:
        return
    entry = _entry(place, file, text)
    try:
        data = json.dumps({"ir": ir, "spans": _span_table(ir, spans)}, separators=(",", ":"))
        temporary = entry.with_suffix(f".{os.getpid()}.part")
        temporary.write_text(data, "utf-8")
        os.replace(temporary, entry)        # whole or not at all, for a run beside this one
        kept = sorted(place.glob("ir-*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:max(0, len(kept) - MAX_ENTRIES)]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        pass
