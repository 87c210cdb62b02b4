"""A batch's statistics, counted from the rows compiled code writes, in one compiled pass over
them (NativeProgram.summarise). Each game's row is read once, where numpy walked the rows once
per field and then again for each histogram, mask and fancy index.

A histogram is counted in an array of BINS cells for its values in 0..BINS-1 (turns, cards,
rounds, seats); a value outside them (a negative or large score, a round stalled at 10,000
turns) is written to a list of the histogram's own, counted apart (histograms). Together
they are the counts Summary.add_game makes game by game: tests/test_native.py holds the two
equal."""
from __future__ import annotations

from collections import Counter

import numpy as np
from numba import njit

BINS = 4096
# the histograms: HISTOGRAMS[h] names Summary's Counter that row h of `bins` and `values` counts
HISTOGRAMS = ("outcomes", "wins_by_seat", "original_wins", "round_turns", "round_drawn", "game_rounds",
              "score_spread", "winning_score")
OUTCOME, SEAT, ORIGINAL, TURNS, DRAWN, ROUNDS, SPREAD, WINNING = range(len(HISTOGRAMS))
# where a row keeps its fields (source.ROW and row_of's order)
F_OUTCOME, F_WINNER, F_ROUND, F_TRACKED, F_ROUNDS = 0, 1, 2, 11, 12


@njit(cache=True, nogil=True, boundscheck=True)
def tally(rows, rounds, starts, players, fields, totals, bins, values, used, tracked):
    """Add games rows[0..] to totals (each of the first `fields` fields' sum), bins[h, v] (how
    many values v histogram h has, for 0 <= v < bins.shape[1]), values[h, used[h]:] (its values
    outside those, in order; used[h] grows) and tracked[0] (the seats that played a tracked
    card), tracked[1] (... and won): the caller zeroes them to start a count, and empties
    `values` (values_outside) before they would overflow. A row holds `fields` fields, then
    each seat's score, then the original seat of each seat; game g's rounds are
    rounds[starts[g]:starts[g] + its F_ROUNDS]. The counting is written out here, not in a
    helper: a compiled call handed these arrays counts references to them, at each value (it
    made this pass 30 times slower)."""
    h_all = len(HISTOGRAMS)
    if rows.shape[1] != fields + 2 * players or totals.shape[0] != fields or bins.shape[0] != h_all \
            or values.shape[0] != h_all or used.shape[0] != h_all or tracked.shape[0] != 2:
        raise ValueError("tally: the arrays' shapes do not fit the rows")
    cells = bins.shape[1]
    every = (1 << players) - 1
    game = np.zeros(h_all, np.int64)           # this game's value of each histogram it counts in
    for g in range(rows.shape[0]):
        for f in range(fields):
            totals[f] += rows[g, f]
        outcome, winner, n = rows[g, F_OUTCOME], rows[g, F_WINNER], rows[g, F_ROUNDS]
        game[OUTCOME] = outcome
        game[ROUNDS] = n
        counts = (1 << OUTCOME) | (1 << ROUNDS)
        won = outcome == 0 and winner >= 0
        original = -1
        if won:
            original = rows[g, fields + players + winner]
            game[SEAT] = winner
            game[ORIGINAL] = original
            counts |= (1 << SEAT) | (1 << ORIGINAL)
        mark = rows[g, F_TRACKED]
        if mark:
            m = mark & every
            while m:                        # each seat that played it
                m &= m - 1
                tracked[0] += 1
            if won:
                tracked[1] += (mark >> original) & 1
        high, low, scored = rows[g, fields], rows[g, fields], rows[g, F_ROUND] > 1
        for q in range(players):
            s = rows[g, fields + q]
            high, low, scored = max(high, s), min(low, s), scored or s != 0
        if scored:
            game[SPREAD] = high - low
            counts |= 1 << SPREAD
            if won:
                game[WINNING] = rows[g, fields + winner]
                counts |= 1 << WINNING
        for h in range(h_all):
            if counts >> h & 1:
                v = game[h]
                if 0 <= v < cells:
                    bins[h, v] += 1
                else:
                    values[h, used[h]] = v
                    used[h] += 1
        for r in range(starts[g], starts[g] + n):
            for h in (TURNS, DRAWN):
                v = rounds[r, h - TURNS]
                if 0 <= v < cells:
                    bins[h, v] += 1
                else:
                    values[h, used[h]] = v
                    used[h] += 1


def histograms(bins, values, used, outside: dict | None = None) -> dict:
    """{name: {value: count}} of each of tally's histograms, as Python ints (what a Counter is
    updated with): its bins, its values outside them counted apart, and the counts `outside`
    (values_outside's, of values emptied before) added."""
    counted = {}
    for h, name in enumerate(HISTOGRAMS):
        found = np.flatnonzero(bins[h])
        counted[name] = dict(zip(found.tolist(), bins[h, found].tolist()))
        more = Counter(outside.get(name, {}) if outside else {})
        if used[h]:
            more.update(_counts(values[h, :used[h]]))
        counted[name].update(more)          # bins and values outside them never share a value
    return counted


def values_outside(values, used, outside: dict) -> None:
    """Move the values tally wrote outside the bins into `outside` ({name: Counter}), and empty
    them (used[:] = 0), so that the next rows' values fit."""
    for h, name in enumerate(HISTOGRAMS):
        if used[h]:
            outside.setdefault(name, Counter()).update(_counts(values[h, :used[h]]))
    used[:] = 0


def _counts(values) -> dict:
    """{value: count} of an int array, as Python ints."""
    found, counts = np.unique(values, return_counts=True)
    return dict(zip(found.tolist(), counts.tolist()))
