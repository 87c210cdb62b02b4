"""`--precision`: looks that double until every interval is as narrow as asked, with intervals and
p-values that account for the looks (runs/precision.py). The stopping rule is checked over many
simulated runs of a pair with a known difference: the chance of a false verdict stays under 5%,
and the reported interval covers the true difference at least 95% of the time."""
from __future__ import annotations

import json
import math
import random

import pytest

from helpers import run_cli
from unorules.runs.comparison import compare_summaries
from unorules.runs.precision import planned_looks, run_until_precise
from unorules.runs.stats import z_for
from unorules.runs.stats import Summary


def test_the_looks_are_planned_before_any_game():
    assert planned_looks(1000, 8000) == [1000, 2000, 4000, 8000]
    assert planned_looks(1000, 5000) == [1000, 2000, 4000, 5000]
    assert planned_looks(500, 500) == [500]
    assert z_for(1) == pytest.approx(1.959964, abs=1e-5)
    assert z_for(8) == pytest.approx(2.734, abs=1e-3)         # 0.05 / 16 in each tail
    with pytest.raises(ValueError):
        planned_looks(0, 10)


class Pair:
    """Two variants of a made-up game, played by the look: seat 0 wins with `p0` in variant B
    (`base` in A), the others share the rest; a round lasts 20 to 49 turns in both."""

    def __init__(self, rng, players=4, base=0.25, p0=0.25):
        self.rng, self.players, self.base, self.p0 = rng, players, base, p0
        self.summaries = [Summary(), Summary()]

    def advance(self, start, stop):
        for summary, p in zip(self.summaries, (self.base, self.p0)):
            r = self.rng.random
            for _ in range(stop - start):
                u = r()
                seat = 0 if u < p else 1 + int((u - p) / (1 - p) * (self.players - 1))
                summary.games += 1
                summary.outcomes["win"] += 1
                summary.wins_by_seat[min(seat, self.players - 1)] += 1
                summary.round_turns[20 + int(r() * 30)] += 1

    def figures(self, looks):
        da, db = (s.as_dict(self.players) for s in self.summaries)
        return compare_summaries(["a", "b"], da, db, self.players, (), looks)


def _run(rng, precision=4.0, first=200, cap=3200, **kw):
    pair = Pair(rng, **kw)
    looks = len(planned_looks(first, cap))
    outcome = run_until_precise(pair.advance, lambda z: [(f["figure"], f["half_width"])
                                                         for f in pair.figures(looks)["figures"]],
                                precision, first, cap)
    return pair, outcome, pair.figures(looks)


def test_the_run_stops_at_the_first_precise_look():
    pair, outcome, comparison = _run(random.Random(1))
    assert outcome.precise and outcome.games in planned_looks(200, 3200)
    assert all(look.half_width >= 4.0 for look in outcome.looks[:-1])
    assert all(f["half_width"] < 4.0 for f in comparison["figures"])
    assert outcome.setter == outcome.looks[-2].widest
    assert pair.summaries[0].games == pair.summaries[1].games == outcome.games
    capped = run_until_precise(pair.advance, lambda z: [("never", 99.0)], 1.0, 10, 40)
    assert not capped.precise and capped.games == 40 and len(capped.looks) == 3


def test_its_error_rate_holds_over_many_runs():
    """No difference: a false verdict (any figure) in at most 5% of the runs. A difference of 4
    points for seat 0: the reported interval covers it in at least 95% of the runs."""
    rng = random.Random(2026)
    runs = 500
    false = sum(bool(_run(rng)[2]["verdicts"]) for _ in range(runs))
    covered = 0
    for _ in range(runs):
        _, _, comparison = _run(rng, p0=0.29)
        seat0 = next(f for f in comparison["figures"] if f["figure"] == "seat 0 win rate")
        covered += seat0["ci95"][0] <= 0.04 <= seat0["ci95"][1]
    se = math.sqrt(0.05 * 0.95 / runs)
    assert false / runs <= 0.05 + 3 * se, false
    assert covered / runs >= 0.95 - 3 * se, covered


def test_compare_with_precision(tmp_path):
    code, stdout, stderr = run_cli("compare", "official", "--with", "skip_two", "--players", "2", "--agents",
                                   "random", "--games", "400", "--precision", "6", "--max-games", "3200", "--json",
                                   "--workers", "1")
    assert code == 0, stderr
    d = json.loads(stdout)
    p = d["precision"]
    assert p["games"] == d["games"] == d["results"][0]["games"] in (400, 800, 1600, 3200)
    assert p["planned_looks"] == 4 and p["z"] == pytest.approx(z_for(4), abs=1e-4)
    assert d["comparison"]["looks"] == 4 and d["comparison"]["z"] == p["z"]
    if p["precise"]:
        assert all(f["half_width"] < 6 for f in d["comparison"]["figures"])
    report = tmp_path / "r.json"
    report.write_text(stdout)
    code, _, stderr = run_cli("report", report, "-o", tmp_path / "r.html")
    assert code == 0, stderr


def test_simulate_with_precision():
    code, stdout, stderr = run_cli("simulate", "rlcard", "--players", "2", "--agents", "random", "--games", "500",
                                   "--precision", "3", "--max-games", "8000", "--workers", "1")
    assert code == 0, stderr
    line = next(ln for ln in stdout.splitlines() if ln.startswith("precision:"))
    assert "every interval is within ±3 after" in line and "looks planned" in line
    code, _, stderr = run_cli("simulate", "rlcard", "--games", "500", "--precision", "3", "--events", "x.jsonl")
    assert code == 2 and "--precision" in stderr


def test_compare_prints_each_difference_with_its_interval():
    code, stdout, stderr = run_cli("compare", "official", "--with", "skip_two", "--players", "2", "--agents",
                                   "random", "--games", "400", "--precision", "8", "--max-games", "1600",
                                   "--workers", "1")
    assert code == 0, stderr
    lines = stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("differences ("))
    assert "over 3 looks" in lines[start]
    rows = lines[start + 1:start + 5]           # turns, two seats, who plays the card
    assert rows[0].lstrip().startswith("turns per round") and "turns" in rows[0]
    precise = "every interval is within ±8" in stdout
    for row in rows:
        lo, hi = (float(x) for x in row.split("[")[1].split("]")[0].split(","))
        assert lo <= hi and (not precise or (hi - lo) / 2 < 8)
