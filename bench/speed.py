#!/usr/bin/env python3
"""Simulation speed against the references, all in one run (random agents, single rounds).

Times, for each player count and in alternating repeats:
  rlcard      RLCard 1.2.0's raw UnoGame (../shared/bench/rlcard_uno.py; `pip install '.[bench]'`)
  handcoded   the hand-written pure-Python simulator of RLCard's rules (../shared/bench/handcoded_uno.py)
  unorules:rlcard    this project's interpreter on rulebooks/rlcard.uno (RLCard's rules as a rulebook)
  official:random_play   the interpreter on official (challenge, UNO call and catch, scoring), played
                     by RLCard's random player: a uniformly random play whenever it can play
  official:random    the same with uniformly random answers to every decision: drawing is legal
                     on every turn in official, so such games last ~1,400 decisions, not ~100
Each unorules runner plays through `simulate`'s own path (simulation.run_range) with its default
simulator: generated Python with hands counted per face where the code generator covers the rules
and agents (the engine's distribution of games, its own random stream), else the generated code
that plays the engine's games, else the engine. The `generated:` runners force the code that plays
the engine's very games, the `engine:` runners the engine, for the ratios of the three in one run. It prints games per second (median of the
repeats), decisions per game and per second, and the ratios the project tracks (issue 14's targets:
unorules:rlcard >= 0.5x handcoded, official:random_play >= 2x rlcard). It also checks that
rulebooks/rlcard.uno plays like RLCard: the same mean number of turn decisions per game and seat-0
win rate within sampling error (z scores).

    python bench/speed.py --games 2000 --players 2,4 --repeats 3
    python bench/speed.py --table --games 1000       # every shipped rulebook: engine and generated,
                                                     # greedy and random_play agents
    python bench/speed.py --native --repeats 3       # native code (issue 31): its targets, then every
                                                     # shipped rulebook counted vs native, cold and warm
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unorules.runs.simulation import RunSpec, make_game, run_range, simulator_for   # noqa: E402


def load_reference(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def unorules_runner(rulebook, count_key, agent="random", simulator="auto", rounds="single"):
    def run(n_games, players, seed):
        spec = RunSpec(rulebook, players=players, seed=seed, agents=(agent,), rounds=rounds, simulator=simulator)
        simulator_for(make_game(spec), spec)          # compiled (and code generated) before the clock starts
        run_range(spec, 0, 1)
        actions, winners = [], []

        def record(s):
            actions.append(s.counts[count_key])
            winners.append(s.winner if s.winner is not None else -1)
        t0 = time.perf_counter()
        run_range(spec, 0, n_games, on_game=record)
        return time.perf_counter() - t0, actions, winners
    return run


def table(args):
    """Every shipped rulebook, greedy and random_play seats: the engine in one process (the "before":
    simulate's path before code generation, with its old default of one worker) against simulate's own
    choice (counted hands, else the generated code that plays the engine's games, else the engine),
    in one process and with simulate's default workers (one per core); alternating, median games/s."""
    from unorules.runs.simulation import default_workers, simulate
    names = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.uno"))
    if args.rulebooks:
        names = [n for n in names if n in args.rulebooks.split(",")]
    workers = default_workers()
    print(f"{'rulebook':<18} {'agents':<12} {'engine g/s':>10} {'simulate g/s':>12} {'ratio':>6} "
          f"{f'{workers} workers g/s':>16} {'ratio':>6}  simulator")
    for name in names:
        players = 2 if name == "showdown" else 4
        for agent in ("greedy", "random_play"):
            rates = {"engine": [], "auto": [], "workers": []}
            spec = RunSpec(name, players=players, agents=(agent,), rounds="single")
            for _ in range(args.repeats):
                for sim in ("engine", "auto"):
                    elapsed, _, _ = unorules_runner(name, "decisions", agent, sim, "single")(args.games, players, 0)
                    rates[sim].append(args.games / elapsed)
                t0 = time.perf_counter()
                simulate(spec, args.games, workers=workers)
                rates["workers"].append(args.games / (time.perf_counter() - t0))
            program, why = simulator_for(make_game(spec), spec)
            e, a, w = (statistics.median(rates[k]) for k in ("engine", "auto", "workers"))
            used = ("counted" if program.representation == "counted" else "generated") if program else (
                "engine (" + why.replace("the code generator does not cover ", "") + ")")
            print(f"{name:<18} {agent:<12} {e:10.0f} {a:12.0f} {a / e:5.2f}x {w:16.0f} {w / e:5.2f}x  {used}", flush=True)


def native(args):
    """Native code (unorules/native, needs numba) against counted Python and the hand-written
    reference, in one process, alternating repeats, statistics included (simulate's own path,
    run_range); then every shipped rulebook with greedy seats and its own rounds: counted vs native
    games/s, and the wall time of a whole `unorules simulate … --simulator native` command with an
    empty cache (cold: numba compiles) and again (warm: the machine code is read back). Where the
    native sketch is there, its hand-written numba game is timed too (the same games as handcoded's
    rules, without statistics): what generated code is measured against, its ceiling."""
    import os
    import subprocess
    import tempfile
    from dataclasses import replace
    from unorules.runs.simulation import native_program

    def rate(spec, games):
        run_range(spec, 0, min(games, 50))                     # compiled (or loaded) before the clock
        t0 = time.perf_counter()
        run_range(spec, 0, games)
        return games / (time.perf_counter() - t0)

    import numpy as np
    hc = load_reference(Path(args.shared) / "handcoded_uno.py", "handcoded_uno")
    sketch = Path(args.shared) / "native_sketch" / "uno_numba.py"
    hand = None
    if sketch.exists():           # the sketch's hand-written numba game: rlcard's rules, no statistics
        sys.path.insert(0, str(sketch.parent))
        hand = load_reference(sketch, "uno_numba")
        wins, acts = np.zeros(args.games * 200, np.int64), np.zeros(args.games * 200, np.int64)
        hand.play_range(1, 0, 1000, 4, acts, wins)                  # compiled before the clock
    rl = RunSpec("rlcard", players=4, agents=("random",), rounds="single")
    off = RunSpec("official", players=4, agents=("greedy",))
    rates = {k: [] for k in ("handcoded", "hand-written numba", "rlcard counted", "rlcard native", "official counted",
                             "official native")}
    if hand is None:
        del rates["hand-written numba"]
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        hc.run_games("bits", args.games * 10, 4, 0, "stdlib")
        rates["handcoded"].append(args.games * 10 / (time.perf_counter() - t0))
        if hand is not None:
            t0 = time.perf_counter()
            hand.play_range(1, 0, args.games * 200, 4, acts, wins)
            rates["hand-written numba"].append(args.games * 200 / (time.perf_counter() - t0))
        rates["rlcard counted"].append(rate(replace(rl, simulator="counted"), args.games * 10))
        rates["rlcard native"].append(rate(replace(rl, simulator="native"), args.games * 200))
        rates["official counted"].append(rate(replace(off, simulator="counted"), args.games))
        rates["official native"].append(rate(replace(off, simulator="native"), args.games * 20))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"one process, statistics included, {args.repeats} alternating repeats (median games/s):")
    for k, v in med.items():
        print(f"  {k:<18} {v:10.0f}")
    print(f"  rlcard, random agents, 4 players: native / handcoded = {med['rlcard native'] / med['handcoded']:.1f}x "
          f"(target >= 40x); native / counted = {med['rlcard native'] / med['rlcard counted']:.1f}x")
    if hand is not None:
        print(f"  the sketch's hand-written numba game (rlcard's rules, no statistics): "
              f"{med['hand-written numba'] / med['handcoded']:.1f}x handcoded; rlcard native is "
              f"{med['rlcard native'] / med['hand-written numba']:.2f} of it")
    print(f"  official, greedy agents, matches: native / counted = "
          f"{med['official native'] / med['official counted']:.1f}x (target >= 20x)\n", flush=True)

    names = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.uno"))
    if args.rulebooks:
        names = [n for n in names if n in args.rulebooks.split(",")]
    print(f"{'rulebook':<18} {'counted g/s':>11} {'native g/s':>11} {'ratio':>7} {'cold s':>7} {'warm s':>7}  "
          "(greedy seats, the rulebook's rounds; cold/warm: a whole 1,000-game command)")
    for name in names:
        players = 2 if name == "showdown" else 4
        spec = RunSpec(name, players=players, agents=("greedy",))
        program, why = native_program(make_game(spec), spec)
        if program is None:
            print(f"{name:<18} {'':>11} {'':>11} {'':>7} {'':>7} {'':>7}  not native: {why}", flush=True)
            continue
        c = rate(replace(spec, simulator="counted"), args.games)
        n = rate(replace(spec, simulator="native"), args.games * 20)
        walls = []
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, UNORULES_NATIVE_CACHE=cache)
            for _ in ("cold", "warm"):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "unorules", "simulate", name, "--players", str(players),
                                "--agents", "greedy", "--games", "1000", "--workers", "1", "--simulator", "native"],
                               env=env, capture_output=True, check=True)
                walls.append(time.perf_counter() - t0)
        print(f"{name:<18} {c:11.0f} {n:11.0f} {n / c:6.1f}x {walls[0]:7.1f} {walls[1]:7.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="games per timed run (official plays games/10)")
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "bench"), help="folder of the reference scripts")
    ap.add_argument("--table", action="store_true", help="the per-rulebook table instead")
    ap.add_argument("--native", action="store_true", help="native code's targets and per-rulebook table instead")
    ap.add_argument("--rulebooks", default="", help="with --table: only these shipped rulebooks (comma-separated)")
    args = ap.parse_args()
    if args.table:
        table(args)
        return
    if args.native:
        native(args)
        return
    shared = Path(args.shared)
    runners = {}
    try:
        rl = load_reference(shared / "rlcard_uno.py", "rlcard_uno")
        importlib.import_module("rlcard")
        runners["rlcard"] = (rl.play_raw, args.games)
    except (ImportError, FileNotFoundError) as e:
        print(f"(rlcard not timed: {e}; `pip install '.[bench]'`)")
    try:
        hc = load_reference(shared / "handcoded_uno.py", "handcoded_uno")
        runners["handcoded"] = (lambda n, p, s: hc.run_games("bits", n, p, s, "stdlib"), args.games * 4)
    except FileNotFoundError as e:
        print(f"(handcoded reference not timed: {e})")
    runners["unorules:rlcard"] = (unorules_runner("rlcard", "turn_decisions"), args.games)
    runners["generated:rlcard"] = (unorules_runner("rlcard", "turn_decisions", simulator="generated"), args.games)
    runners["engine:rlcard"] = (unorules_runner("rlcard", "turn_decisions", simulator="engine"), args.games)
    runners["official:random_play"] = (unorules_runner("official", "decisions", "random_play"), args.games)
    runners["generated:official:random_play"] = (
        unorules_runner("official", "decisions", "random_play", "generated"), args.games)
    runners["engine:official:random_play"] = (unorules_runner("official", "decisions", "random_play", "engine"),
                                              args.games)
    runners["official:random"] = (unorules_runner("official", "decisions"), max(20, args.games // 10))

    for players in [int(p) for p in args.players.split(",")]:
        rates = {k: [] for k in runners}
        last = {}
        for _ in range(args.repeats):                 # alternate the implementations in every repeat
            for name, (run, n) in runners.items():
                elapsed, actions, winners = run(n, players, args.seed)
                rates[name].append(n / elapsed)
                last[name] = (actions, winners, elapsed)
        print(f"\n{players} players, random agents, {args.repeats} alternating repeats (median games/s):")
        med = {k: statistics.median(v) for k, v in rates.items()}
        for name in runners:
            actions, winners, elapsed = last[name]
            dpg = statistics.mean(actions)
            print(f"  {name:<31} {med[name]:9.0f} games/s  {dpg:7.1f} decisions/game  "
                  f"{med[name] * dpg / 1000:7.0f}k decisions/s  seat0 {winners.count(0) / len(winners):.3f}")
        def ratio(a, b):
            return f"{med[a] / med[b]:.2f}x" if a in med and b in med else "n/a"
        print(f"  ratios: official:random_play / rlcard = {ratio('official:random_play', 'rlcard')} (target >= 2x)   "
              f"official:random / rlcard = {ratio('official:random', 'rlcard')}\n"
              f"          unorules:rlcard / handcoded = {ratio('unorules:rlcard', 'handcoded')} (target >= 0.5x)   "
              f"unorules:rlcard / rlcard = {ratio('unorules:rlcard', 'rlcard')}   handcoded / rlcard = {ratio('handcoded', 'rlcard')}\n"
              f"          counted / engine: rlcard {ratio('unorules:rlcard', 'engine:rlcard')}   "
              f"official:random_play {ratio('official:random_play', 'engine:official:random_play')}\n"
              f"          generated (the engine's games) / engine: rlcard {ratio('generated:rlcard', 'engine:rlcard')}   "
              f"official:random_play {ratio('generated:official:random_play', 'engine:official:random_play')}")
        per_decision = {k: med[k] * statistics.mean(last[k][0]) for k in runners}
        if "rlcard" in per_decision:
            print("  decisions/s vs rlcard: " + "   ".join(
                f"{k} {per_decision[k] / per_decision['rlcard']:.2f}x" for k in runners if k != "rlcard"))
        ref = "handcoded" if "handcoded" in last else "rlcard" if "rlcard" in last else None
        if ref:
            a_ref, w_ref, _ = last[ref]
            a_us, w_us, _ = last["unorules:rlcard"]
            def z_mean(x, y):
                se = math.sqrt(statistics.variance(x) / len(x) + statistics.variance(y) / len(y))
                return (statistics.mean(x) - statistics.mean(y)) / se
            def z_rate(x, y):
                px, py = x.count(0) / len(x), y.count(0) / len(y)
                se = math.sqrt(px * (1 - px) / len(x) + py * (1 - py) / len(y))
                return (px - py) / se
            print(f"  rulebooks/rlcard.uno vs {ref}: decisions/game z = {z_mean(a_us, a_ref):+.2f}, "
                  f"seat-0 win rate z = {z_rate(w_us, w_ref):+.2f} (|z| < 2: the same game within sampling error)")


if __name__ == "__main__":
    main()
