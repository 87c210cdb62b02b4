"""The rows compiled code writes, turned into columns for numpy (NativeProgram.summarise), in one
compiled pass. A game's fields are written side by side, which is fastest for the game; numpy reads
a field fastest with the games side by side. Its transposed copy walks the rows once per field
(21 passes over 8 MB for 50,000 games of four players); this walks them once."""
from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True, boundscheck=True)
def columns_of(rows, columns, totals):
    """columns[f, g] = rows[g, f] for every game g and field f, and totals[f] the sum of field f."""
    games, fields = rows.shape
    if columns.shape[0] != fields or columns.shape[1] != games or totals.shape[0] != fields:
        raise ValueError("columns_of: the columns' shape is not the rows' transposed")
    for f in range(fields):
        totals[f] = 0
    for g in range(games):
        for f in range(fields):
            v = rows[g, f]
            columns[f, g] = v
            totals[f] += v
