"""The tables native code reads, as module constants: each written with `repr` of ints, floats
and booleans only (numpy arrays of int64 or float64, None as NONE), never a text. numba freezes
global arrays into the compiled code. A mask wider than a machine word (a deck of more than 64
faces) cannot be one: that rulebook plays counted Python code, and says why."""
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


def _flat(rows, shape, out):
    if not shape:
        out.append(_scalar(rows))
        return
    for i in range(shape[0]):
        if i < len(rows):
            _flat(rows[i], shape[1:], out)
        else:                                   # padding of a short row: never read (its length bounds it)
            _flat_pad(shape[1:], out)


def _flat_pad(shape, out):
    out.extend([NONE] * math.prod(shape))


def dims(value) -> int:
    """How many indexes the table takes (0 for a number; -1 for what is no table)."""
    try:
        return len(_shape(_rows(value))) if isinstance(value, (list, tuple, range)) else 0
    except NotNative:
        return -1


def emit(name: str, value) -> str:
    """`NAME = <constant>` for one table."""
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
