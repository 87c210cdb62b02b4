"""Runs that go on until their intervals are as narrow as the author asks (`--precision P`).

The games are played in looks whose sizes are fixed before any game is: the first look has
`first` games (per variant), each next look doubles the games, and the last is the cap
(`--max-games`). So at most K looks are planned, K = 1 + ceil(log2(cap / first)). After each look
every reported figure's interval is computed, and the run stops at the first look where every
half-width is under P (points of win rate, turns of game length), or at the cap.

Looking K times at a figure and stopping when it suits would make a plain 95% interval miss more
often than 5%. So every interval and p-value is that of a group-sequential design with
**Bonferroni over the planned looks**: each look is given 0.05 / K, an interval is the estimate ±
z(1 - 0.05 / 2K) standard errors, and a figure's p-value is K times its p-value at the look where
the run stopped (at most 1). By the union bound, a figure's intervals hold at every look at once
with probability at least 95%, whatever the stopping rule, and its p-value is a valid p-value;
Holm's method over the figures (runs/comparison.py) then keeps the chance of any false verdict at
5% or less. It is conservative: with 8 planned looks z is 2.73 instead of 1.96.
tests/test_precision.py checks the error rate over many simulated runs of a pair with a known
difference.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .stats import z_for

METHOD = "Bonferroni over the planned looks (a group-sequential design), then Holm over the figures"


def planned_looks(first: int, cap: int) -> list[int]:
    """The games (per variant) after each look: first, 2 first, 4 first, ..., cap."""
    if first < 1 or cap < first:
        raise ValueError(f"the first look ({first} games) must be at least 1 and at most the cap ({cap})")
    looks = [first]
    while looks[-1] < cap:
        looks.append(min(cap, looks[-1] * 2))
    return looks


@dataclass
class Look:
    games: int
    widest: str              # the figure whose interval was widest against the precision asked
    half_width: float        # its half-width, in its own unit (points of win rate, turns)


@dataclass
class Outcome:
    games: int                            # per variant, when it stopped
    planned: int                          # K: the looks planned
    z: float                              # every interval's z
    precise: bool                         # every figure under the precision asked (else: the cap)
    setter: str                           # the figure that set the number of games
    half_width: float                     # its half-width at the stop
    looks: list[Look] = field(default_factory=list)

    def as_dict(self, precision: float) -> dict:
        return {"precision": precision, "games": self.games, "looks": len(self.looks), "planned_looks": self.planned,
                "z": round(self.z, 4), "precise": self.precise, "set_by": self.setter,
                "set_by_half_width": round(self.half_width, 4), "method": METHOD,
                "history": [{"games": k.games, "widest": k.widest, "half_width": round(k.half_width, 4)}
                            for k in self.looks]}


def run_until_precise(advance, half_widths, precision: float, first: int, cap: int) -> Outcome:
    """Play looks until every figure is precise. `advance(start, stop)` plays games start..stop-1
    of every variant and adds them to what it keeps; `half_widths(z)` gives (figure, half-width in
    the figure's unit) of every figure now, with intervals of that z."""
    if not precision > 0:
        raise ValueError(f"the precision must be above 0, not {precision}")
    schedule = planned_looks(first, cap)
    z = z_for(len(schedule))
    played, looks = 0, []
    for games in schedule:
        advance(played, games)
        played = games
        widths = half_widths(z)
        name, half = max(widths, key=lambda w: w[1]) if widths else ("", 0.0)
        looks.append(Look(games, name, half))
        if all(h < precision for _, h in widths):
            # the figure that set the number: the last to come under the precision
            setter = looks[-2].widest if len(looks) > 1 else name
            setter_now = dict(widths).get(setter, half)
            return Outcome(games, len(schedule), z, True, setter, setter_now, looks)
    return Outcome(played, len(schedule), z, False, looks[-1].widest, looks[-1].half_width, looks)


def simulation_widths(summary, players: int, z: float) -> list[tuple[str, float]]:
    """A simulation's figures and their half-widths with intervals of `z`: each seat's win rate
    (Wilson's interval, in points) and the turns per round (in turns)."""
    from .stats import wilson
    n = summary.games
    out = []
    for seat in range(players):
        lo, hi = wilson(summary.wins_by_seat[seat], n, z)
        out.append((f"seat {seat} win rate", 100 * (hi - lo) / 2 if n else math.inf))
    rounds = sum(summary.round_turns.values())
    out.append(("turns per round", z * summary.turns_sd() / math.sqrt(rounds) if rounds > 1 else math.inf))
    return out


def comparison_widths(labels, summaries, players: int, cards, looks: int) -> list[tuple[str, float]]:
    """A comparison's figures (runs/comparison.py) and their half-widths: points of win rate,
    turns of game length."""
    from .comparison import compare_summaries
    da, db = (s.as_dict(players) for s in summaries)
    return [(f["figure"], f["half_width"]) for f in compare_summaries(labels, da, db, players, cards, looks)["figures"]]
