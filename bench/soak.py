#!/usr/bin/env python3
"""Soak: play many games of every shipped rulebook (and the rule modules laid over `classic`),
checking every invariant after every action. Prints one line per rulebook: games per second,
mean and p95 turns per round, stalls, runtime errors, invariant violations and the win rate of
each seat. A violation prints the seed and the event log to reproduce it, and the exit code is 1.

    python bench/soak.py --games 1000 --players 4 --agents random,greedy
    python bench/soak.py --games 100000 --rulebooks classic,official      # the long soak
    python bench/soak.py --rulebooks official --with shield               # a custom card or module laid on
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.agents.base import make_agents                         # noqa: E402
from unorules.language.loader import shipped_names                      # noqa: E402
from unorules.runs.simulation import RunSpec, game_seed, make_game  # noqa: E402
from unorules.runs.stats import Summary                              # noqa: E402


def play_checked(game, spec, index):
    seed = game_seed(spec.seed, index)
    names = [spec.agents[i % len(spec.agents)] for i in range(spec.players)]
    agents = make_agents(names, seed)
    s = game.new_state(seed)
    while True:
        bad = s.invariant_violations()
        if bad:
            return s, bad
        if s.terminal:
            return s, []
        d = s.decision
        if d.probs is not None:
            a = s.rng.choices(d.options, d.probs)[0]
        else:
            ag = agents[s.seats[d.player]]
            a = ag.choose(s.observe(d.player) if ag.needs_observation else None, d.options)
        s.apply_unchecked(a)


def soak_range(args):
    """Play games [start, stop) of one rulebook, checking invariants; returns (summary, violations)."""
    spec, start, stop = args
    game = make_game(spec, log_events=False)
    summary, problems = Summary(), []
    seat_names = [spec.agents[i % len(spec.agents)] for i in range(spec.players)]
    for i in range(start, stop):
        s, bad = play_checked(game, spec, i)
        if bad:
            replay = make_game(spec, log_events=True)
            r, _ = play_checked(replay, spec, i)
            problems.append((i, game_seed(spec.seed, i), bad, (r.log or [])[-40:]))
            continue
        summary.add_game(s, seat_names)
    return summary, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agents", default="random,greedy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rulebooks", default="", help="comma-separated names (default: all shipped)")
    ap.add_argument("--rounds", default="single", choices=["single", "match", "rulebook"],
                    help="single rounds (default), or whole matches (the deal, leader and team rules between rounds)")
    ap.add_argument("--workers", type=int, default=1, help="processes; totals do not depend on it")
    ap.add_argument("--with", dest="with_", default="", help="comma-separated modules or files laid on each rulebook")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    names = [n for n in args.rulebooks.split(",") if n] or list(shipped_names())
    agents = tuple(args.agents.split(","))
    failed = False
    rows = []
    for name in names:
        spec = RunSpec(name, with_=tuple(m for m in args.with_.split(",") if m), players=args.players,
                       seed=args.seed, agents=agents, rounds=args.rounds)
        t = time.perf_counter()
        chunk = max(1, min(2000, args.games // max(1, args.workers * 4)))
        jobs = [(spec, a, min(args.games, a + chunk)) for a in range(0, args.games, chunk)]
        if args.workers > 1:
            import multiprocessing as mp
            with mp.get_context("fork").Pool(args.workers) as pool:
                parts = pool.map(soak_range, jobs)
        else:
            parts = [soak_range(j) for j in jobs]
        summary, violations = Summary(), 0
        for part, problems in parts:
            summary.merge(part)
            for i, seed, bad, log in problems:
                violations += 1
                failed = True
                print(f"VIOLATION in {name}, game {i} (seed {seed}): {bad}", file=sys.stderr)
                for ev in log:
                    print("   ", json.dumps(ev), file=sys.stderr)
        elapsed = time.perf_counter() - t
        d = summary.as_dict(args.players)
        row = {"rulebook": name, "games": args.games, "games_per_s": round(args.games / elapsed, 1),
               "turns_mean": d["turns_per_round"]["mean"], "turns_p95": d["turns_per_round"]["p95"],
               "stalls": d["stalls"], "errors": sum(d["errors"].values()), "violations": violations,
               "seat_win_rates": [d["wins_by_seat"][str(p)]["rate"] for p in range(args.players)],
               "agent_win_rates": {k: v["rate"] for k, v in d["wins_by_agent"].items()}}
        rows.append(row)
        if d["errors"]:
            failed = True
        if not args.json:
            print(f"{name:<17} {row['games_per_s']:8.1f} games/s  turns mean {row['turns_mean'] or 0:7.1f} p95 {row['turns_p95'] or '-':>5}"
                  f"  stalls {row['stalls']:>4}  errors {row['errors']:>3}  violations {violations:>3}  seats "
                  + " ".join(f"{r:.3f}" for r in row["seat_win_rates"])
                  + "  agents " + " ".join(f"{k} {v:.3f}" for k, v in row["agent_win_rates"].items()), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
