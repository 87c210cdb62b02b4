#!/usr/bin/env python3
"""Hands counted per face against the engine, by distribution (the counted code's random stream is
its own, so its games are not the engine's; tests/test_codegen.py holds it to its reference event
for event, and checks three rulebooks this way in CI). For each rulebook and agent: decisions per
game and seat 0's win rate over `--games` games of each, and their z-scores (|z| < 3 expected).

    python bench/counted_vs_engine.py --rulebooks fast,nonpartisan,attack --agents greedy
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.runs.simulation import RunSpec, run_range         # noqa: E402


def measure(spec: RunSpec, games: int) -> dict:
    """Both simulators over the same `games` seeds: the means, the z-scores of their differences,
    and whether the decision counts came out game for game the same (they should not)."""
    runs = {}
    for simulator in ("counted", "engine"):
        decisions, wins = [], []

        def record(s, decisions=decisions, wins=wins):
            decisions.append(s.counts["decisions"])
            wins.append(1 if s.winner == 0 else 0)
        run_range(replace(spec, simulator=simulator), 0, games, on_game=record)
        runs[simulator] = (decisions, wins)
    (dc, wc), (de, we) = runs["counted"], runs["engine"]
    se = (statistics.variance(dc) / games + statistics.variance(de) / games) ** 0.5
    pc, pe = sum(wc) / games, sum(we) / games
    return {"decisions": (statistics.mean(dc), statistics.mean(de)),
            "z_decisions": (statistics.mean(dc) - statistics.mean(de)) / se,
            "seat0": (pc, pe), "z_seat0": (pc - pe) / ((pc * (1 - pc) + pe * (1 - pe)) / games) ** 0.5,
            "same_games": dc == de}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebooks", default="fast,nonpartisan,attack,flex,mario_kart")
    ap.add_argument("--agents", default="greedy,random_play")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    for name in args.rulebooks.split(","):
        for agent in args.agents.split(","):
            m = measure(RunSpec(name, players=4, seed=args.seed, agents=(agent,), rounds="single"), args.games)
            print(f"{name:<14} {agent:<12} decisions {m['decisions'][0]:7.1f} vs {m['decisions'][1]:7.1f} "
                  f"(z {m['z_decisions']:+.2f})   seat 0 wins {m['seat0'][0]:.3f} vs {m['seat0'][1]:.3f} "
                  f"(z {m['z_seat0']:+.2f})", flush=True)


if __name__ == "__main__":
    main()
