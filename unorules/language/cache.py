"""What the front end keeps between runs, in a folder only this user can write: the grammar's
LALR tables (parser.py) and each file's checked IR, by the file's content.

A file whose text parsed without a problem and passed the JSON Schema is kept as JSON (its IR and
its source spans, by path), under a key made of its text, its name, and a fingerprint of the front
end that read it (the content of the grammar, the schema and every module of the language
package). The next run that meets the same text in the same file skips the parser and the schema,
and imports neither Lark nor jsonschema when no file is new: `validate official` a second time is
a matter of reading two small JSON files. The merged rulebook is checked afresh every time.

Nothing is trusted from a folder another user could write, and nothing in it is read unless this
user's unorules wrote it: every entry is sealed with an HMAC under a key kept in the folder (mode
600), over the entry's name (its text, file and front end) and its bytes. An entry whose seal does
not hold (another JSON, an IR kept for another text, a truncated file), or that is not a regular
file of bounded size (a FIFO, a link, a device), is ignored before a byte of it is parsed, and
the file is read afresh. Lark's tables (a pickle) are sealed the same way and removed before Lark
could load them when their seal does not hold. Set UNORULES_NO_CACHE=1 to read everything afresh
(and keep nothing).
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import stat
from pathlib import Path

from unorules.errors import Span

FORMAT = 2                 # the layout of a kept file; another number is another key
MAX_ENTRIES = 256          # kept files; the least recently used go first
MAX_ENTRY = 64 << 20       # bytes: an entry larger than this is not read
MAX_DEPTH = 400            # an IR nested deeper than this was not kept by us
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
    """A fingerprint of everything that turns a file's text into checked IR: their content (a
    file's size and time can stay the same while it changes)."""
    from .resources import grammar_file, schema_file
    h = hashlib.sha256(str(FORMAT).encode())
    for p in sorted([*_PACKAGE.rglob("*.py"), _PACKAGE.parent / "errors.py", grammar_file(), schema_file()]):
        try:
            data = p.read_bytes()
        except OSError:
            continue
        name = p.relative_to(_PACKAGE.parent) if p.is_relative_to(_PACKAGE.parent) else p.name
        h.update(f"{name}\0{len(data)}\0".encode() + hashlib.sha256(data).digest())
    return h.hexdigest()


def read_bounded(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of at most `limit` bytes, or None: missing, a link, a FIFO, a
    device, larger (nothing is opened that could block or never end)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _key(place: Path) -> bytes | None:
    """This user's key for the folder's seals (made once, mode 600), or None if it cannot be had."""
    path = place / "seal.key"
    key = read_bounded(path, 64)
    if key is not None and len(key) == 32:
        return key
    try:
        temporary = place / f"seal.{os.getpid()}.{secrets.token_hex(4)}.part"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        os.replace(temporary, path)
    except OSError:
        return None
    key = read_bounded(path, 64)              # a run racing this one may have written its own
    return key if key is not None and len(key) == 32 else None


def seal(place: Path, name: str, data: bytes) -> str | None:
    key = _key(place)
    if key is None:
        return None
    return hmac.new(key, name.encode("utf-8", "surrogatepass") + b"\0" + data, hashlib.sha256).hexdigest()


def sealed(place: Path, name: str, data: bytes, mark: bytes | str) -> bool:
    """Whether `mark` is the seal of these bytes under this name (compared in constant time)."""
    expected = seal(place, name, data)
    mark = mark.decode("ascii", "replace") if isinstance(mark, bytes) else mark
    return expected is not None and hmac.compare_digest(expected, mark)


def check_sealed_file(path: Path, limit: int) -> bool:
    """For a file another library reads (Lark's tables): True when it is a regular file whose
    seal, kept beside it, holds; otherwise it and its seal are removed, and False."""
    place = path.parent
    data = read_bounded(path, limit)
    mark = read_bounded(path.with_name(path.name + ".seal"), 128)
    if data is not None and mark is not None and sealed(place, path.name, data, mark):
        return True
    for p in (path, path.with_name(path.name + ".seal")):
        try:
            if os.path.lexists(p):
                os.unlink(p)
        except OSError:
            pass
    return False


def seal_file(path: Path, limit: int) -> None:
    """Seal a file this run has just had written (Lark's tables): its seal beside it."""
    data = read_bounded(path, limit)
    if data is None:
        return
    mark = seal(path.parent, path.name, data)
    if mark is None:
        return
    try:
        temporary = path.with_name(f"{path.name}.{os.getpid()}.part")
        temporary.write_text(mark, "ascii")
        os.replace(temporary, path.with_name(path.name + ".seal"))
    except OSError:
        pass


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


def _shaped(ir) -> bool:
    """An IR's outer shape (a rulebook or module with a name) and bounded nesting: what a sealed
    entry has; a check of the schema's own is what made it, before it was kept."""
    if not isinstance(ir, dict) or ir.get("kind") not in ("rulebook", "module") or not isinstance(ir.get("name"), str):
        return False
    stack = [(ir, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        children = node.values() if isinstance(node, dict) else node
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return True


def recall(file: str, text: str):
    """(ir, spans) of a file kept before with this very text and name, or None (none kept, or
    one this user's unorules did not seal for this text: the file is read afresh)."""
    place = folder()
    if place is None:
        return None
    entry = _entry(place, file, text)
    data = read_bounded(entry, MAX_ENTRY)
    if data is None or b"\n" not in data:
        return None
    mark, payload = data.split(b"\n", 1)
    if not sealed(place, entry.name, payload, mark):
        return None
    try:
        kept = json.loads(payload)
        ir = kept["ir"]
        if not _shaped(ir):
            return None
        spans = _spans_of(ir, kept["spans"])
        os.utime(entry)                     # recently used
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError):
        return None                         # not readable as kept: read the file afresh
    return ir, spans


def keep(file: str, text: str, ir, spans) -> None:
    """Keep a file's checked IR; never fails (a cache that cannot be written is no cache)."""
    place = folder()
    if place is None:
        return
    entry = _entry(place, file, text)
    try:
        payload = json.dumps({"ir": ir, "spans": _span_table(ir, spans)}, separators=(",", ":")).encode()
        mark = seal(place, entry.name, payload)
        if mark is None or len(payload) > MAX_ENTRY:
            return
        temporary = entry.with_suffix(f".{os.getpid()}.part")
        temporary.write_bytes(mark.encode() + b"\n" + payload)
        os.replace(temporary, entry)        # whole or not at all, for a run beside this one
        kept = sorted(place.glob("ir-*.json"), key=lambda p: p.stat().st_mtime_ns)
        for old in kept[:max(0, len(kept) - MAX_ENTRIES)]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        pass
