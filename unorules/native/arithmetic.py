"""A rule's arithmetic in native code, checked: `*`, `+`, `-` and a sum's terms as counted code
writes them (TIMES, PLUS, MINUS). A value past ±2^60 raises NativeStop, and the game is played by
the reference in Python's exact integers: an int64 would wrap past 2^63, and NONE is -2^62. A
native module imports them by name (source.ARITHMETIC)."""
from __future__ import annotations

from numba import njit

from .runtime import JIT, NativeStop

WIDE = float(1 << 60)          # a rule's arithmetic past this (in magnitude) leaves native code


@njit(**JIT)
def n_times(a, b):
    """A rule's `a * b`, or NativeStop where it would leave ±2^60 (an int64 would wrap past 2^63, and
    NONE is -2^62): the reference, in Python's exact integers, plays that game."""
    if abs(float(a) * float(b)) >= WIDE:
        raise NativeStop()
    return a * b


@njit(**JIT)
def n_plus(a, b):
    """A rule's `a + b` (a sum's terms too), checked as n_times is."""
    if abs(float(a) + float(b)) >= WIDE:
        raise NativeStop()
    return a + b


@njit(**JIT)
def n_minus(a, b):
    """A rule's `a - b`, checked as n_times is."""
    if abs(float(a) - float(b)) >= WIDE:
        raise NativeStop()
    return a - b
