#!/usr/bin/env python3
"""Hands counted per face against the engine, by distribution (the counted code's random stream is
its own, so its games are not the engine's; tests/test_codegen.py holds it to its reference event
for event, and checks three rulebooks this way in CI). For each rulebook and agent: decisions per
game and seat 0's win rate over `--games` games of each, and their z-scores (|z| < 3 expected).

    python bench/counted_vs_engine.py --rulebooks fast,nonpartisan,attack --agents greedy
    python bench/counted_vs_engine.py --rulebooks official,rlcard --native     # native code too
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.runs.simulation import RunSpec, run_range         # noqa: E402


def native_runs(spec: RunSpec, games: int):
    """Decisions per game and seat-0 wins of native code (unorules/native) over the run's seeds,
    from its rows (the games it plays in compiled code)."""
    from unorules.runs.simulation import game_seed, make_game, seat_agents
    from unorules.native.program import NativeProgram
    program = NativeProgram(make_game(spec), tuple(seat_agents(spec)))
    out, _, _ = program.play_rows([game_seed(spec.seed, i) for i in range(games)])
    return [int(d) for d in out[:, 6]], [1 if w == 0 and o == 0 else 0 for o, w in zip(out[:, 0], out[:, 1])]


def z_scores(a, b, games: int) -> tuple[float, float]:
    """(z of the difference in mean decisions, z of the difference in seat-0 win rate)."""
    (da, wa), (db, wb) = a, b
    se = (statistics.variance(da) / games + statistics.variance(db) / games) ** 0.5
    pa, pb = sum(wa) / games, sum(wb) / games
    return ((statistics.mean(da) - statistics.mean(db)) / se,
            (pa - pb) / ((pa * (1 - pa) + pb * (1 - pb)) / games) ** 0.5)


def measure(spec: RunSpec, games: int, native: bool = False, engine: str = "engine") -> dict:
    """Both simulators over the same `games` seeds: the means, the z-scores of their differences,
    and whether the decision counts came out game for game the same (they should not). `native`:
    native code too, against the same engine games (z_native_decisions, z_native_seat0). `engine`:
    what plays the engine's games; "generated" (the engine's very games, in generated code) is
    five times faster, where something else holds it to the engine game for game."""
    runs = {}
    for simulator in ("counted", engine):
        decisions, wins = [], []

        def record(s, decisions=decisions, wins=wins):
            decisions.append(s.counts["decisions"])
            wins.append(1 if s.winner == 0 else 0)
        run_range(replace(spec, simulator=simulator), 0, games, on_game=record)
        runs["engine" if simulator == engine else simulator] = (decisions, wins)
    (dc, wc), (de, we) = runs["counted"], runs["engine"]
    z_decisions, z_seat0 = z_scores(runs["counted"], runs["engine"], games)
    m = {"decisions": (statistics.mean(dc), statistics.mean(de)), "z_decisions": z_decisions,
         "seat0": (sum(wc) / games, sum(we) / games), "z_seat0": z_seat0, "same_games": dc == de}
    if native:
        runs["native"] = native_runs(spec, games)
        m["z_native_decisions"], m["z_native_seat0"] = z_scores(runs["native"], runs["engine"], games)
        m["native"] = (statistics.mean(runs["native"][0]), sum(runs["native"][1]) / games)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebooks", default="fast,nonpartisan,attack,flex,mario_kart")
    ap.add_argument("--agents", default="greedy,random_play")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--native", action="store_true", help="native code too (needs numba)")
    args = ap.parse_args()
    for name in args.rulebooks.split(","):
        for agent in args.agents.split(","):
            m = measure(RunSpec(name, players=4, seed=args.seed, agents=(agent,), rounds="single"), args.games,
                        args.native)
            print(f"{name:<14} {agent:<12} decisions {m['decisions'][0]:7.1f} vs {m['decisions'][1]:7.1f} "
                  f"(z {m['z_decisions']:+.2f})   seat 0 wins {m['seat0'][0]:.3f} vs {m['seat0'][1]:.3f} "
                  f"(z {m['z_seat0']:+.2f})" + (f"   native decisions {m['native'][0]:7.1f} (z "
                                               f"{m['z_native_decisions']:+.2f}), seat 0 {m['native'][1]:.3f} "
                                               f"(z {m['z_native_seat0']:+.2f})" if args.native else ""), flush=True)


if __name__ == "__main__":
    main()
