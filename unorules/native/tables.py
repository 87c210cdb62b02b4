"""The tables native code reads, as module constants: each written with `repr` of ints, floats
and booleans only (numpy arrays of int64 or float64, None as NONE), never a text. numba freezes
global arrays into the compiled code. A table of masks wider than a machine word (a deck of more
than 64 faces) is written with two words per entry, a last index of 2 (`emit(..., words=2)`;
wide.py reads them), up to 128 faces."""
from __future__ import annotations

import math


NONE = -(1 << 62)
INT64 = 1 << 63


class NotNative(Exception):
    """A construct native code does not translate: the run plays counted Python code, saying why."""


def _scalar(v):
    """An int, bool or float as int64 / float64 arithmetic sees it (masks of 64 faces wrap to the
    sign bit, as the counted code's Python ints read in two's complement)."""
    if v is None:
        return NONE
    if type(v) is bool:
        return int(v)
    if type(v) is int:
        if v >= 1 << 64 or v < -INT64:
            raise NotNative("masks of more than 64 faces")
        return v - (1 << 64) if v >= INT64 else v
    if type(v) is float:
        if not math.isfinite(v):
            raise NotNative("a table entry that is not a finite number")
        return v
    raise NotNative(f"a table of {type(v).__name__}")


def split_word(v: int) -> tuple[int, int]:
    """A mask of up to 128 faces as two int64 words (bits 0-63, bits 64-127), each as int64
    arithmetic reads it; a negative int keeps its sign in the high word (two's complement)."""
    if not -(1 << 127) <= v < 1 << 128:
        raise NotNative("masks of more than 128 faces")
    lo, hi = v & ((1 << 64) - 1), (v >> 64) & ((1 << 64) - 1)
    return (lo - (1 << 64) if lo >= INT64 else lo), (hi - (1 << 64) if hi >= INT64 else hi)


def _ints(v):
    if isinstance(v, (list, tuple, range)):
        for x in v:
            yield from _ints(x)
    elif type(v) is int:
        yield v


def two_words(value) -> int | None:
    """How many indexes reach an entry of a table that needs two words (some entry outside int64's
    range: a mask of a face past the 63rd); None for a table one word holds."""
    if type(value) is not int and not isinstance(value, (list, tuple, range)):
        return None
    if all(-INT64 <= v < INT64 for v in _ints(value)):
        return None
    return dims(value)


def _rows(v) -> list:
    if isinstance(v, range):
        return list(v)
    if isinstance(v, (list, tuple)):
        return [_rows(x) if isinstance(x, (list, tuple, range)) else x for x in v]
    raise NotNative(f"a table of {type(v).__name__}")


def _shape(rows):
    """The rectangle a nested list fills (ragged rows padded)."""
    if not isinstance(rows, list):
        return ()
    inner = [_shape(r) for r in rows]
    if not inner:
        return (0,)
    depth = {len(s) for s in inner}
    if len(depth) != 1:
        raise NotNative("a table of mixed depth")
    return (len(rows),) + tuple(max((s[i] for s in inner), default=0) for i in range(depth.pop()))


def _flat(rows, shape, out, wide=False):
    if not shape:
        if wide:
            if rows is not None and type(rows) not in (int, bool):
                raise NotNative("a table of masks wider than a word and other values")
            out.extend((NONE, -1) if rows is None else split_word(int(rows)))
        else:
            out.append(_scalar(rows))
        return
    for i in range(shape[0]):
        if i < len(rows):
            _flat(rows[i], shape[1:], out, wide)
        else:                                   # padding of a short row: never read (its length bounds it)
            _flat_pad(shape[1:], out, wide)


def _flat_pad(shape, out, wide=False):
    out.extend([NONE] * (math.prod(shape) * (2 if wide else 1)))


def dims(value) -> int:
    """How many indexes the table takes (0 for a number; -1 for what is no table)."""
    try:
        return len(_shape(_rows(value))) if isinstance(value, (list, tuple, range)) else 0
    except NotNative:
        return -1


def emit(name: str, value, words: int = 1) -> str:
    """`NAME = <constant>` for one table; with `words=2`, a table that needs two words has each
    entry as a pair (a last index of 2; a number as a tuple)."""
    if words == 2 and two_words(value) is not None:
        if type(value) is int:
            return f"{name} = {split_word(value)!r}"
        rows = _rows(value)
        shape = _shape(rows)
        flat = []
        _flat(rows, shape, flat, wide=True)
        return f"{name} = np.array([{', '.join(repr(x) for x in flat)}], dtype=np.int64).reshape({shape + (2,)!r})"
    if isinstance(value, (bool, int, float)) or value is None:
        return f"{name} = {_scalar(value)!r}"
    rows = _rows(value)
    shape = _shape(rows)
    flat: list = []
    _flat(rows, shape, flat)
    dtype = "np.float64" if any(type(x) is float for x in flat) else "np.int64"
    body = ", ".join(repr(x) for x in flat)
    return f"{name} = np.array([{body}], dtype={dtype}).reshape({shape!r})"


def seat_tables(others: dict, players: int) -> dict:
    """OTHERS (the seats after p, by direction), and CYCLE / CYCLE_END (p first or last), indexed
    by (direction + 1) >> 1: 0 counterclockwise, 1 clockwise."""
    rows = {d: [list(others[d][p]) for p in range(players)] for d in (-1, 1)}
    return {"OTHERS": [rows[-1], rows[1]],
            "CYCLE": [[[p] + rows[d][p] for p in range(players)] for d in (-1, 1)],
            "CYCLE_END": [[rows[d][p] + [p] for p in range(players)] for d in (-1, 1)]}
