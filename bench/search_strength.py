#!/usr/bin/env python3
"""How strong the search agent is, and what hidden information costs it (issue 15).

Seat 0 is searched, seats 1-3 play the greedy heuristic; `official`, 4 players, single rounds.
`--see` says what the search may look at: `nothing` (the shipped agent: other hands and the draw
pile dealt again at random), `hands` (the true other hands; the draw pile shuffled), `all` (the
true state, the draw pile's order included: a cheat, to show the search itself works), `colors`
(each other hand's true colors, its cards of each color dealt at random among the unseen cards of
that color: what a perfect reading of colors, and nothing more, would give the search).
`--unguarded` plays the largest mean gain, without the 2-standard-error guard; `--no-infer` deals
the other hands at random, without what the public play tells of them (unorules/belief.py).

    python bench/search_strength.py --games 200 --determinizations 10 --see hands
    python bench/search_strength.py --games 200 --agent greedy
    python bench/search_strength.py --playout-speed
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.agents.base import make_agent                      # noqa: E402
from unorules.agents.search import ISMCTSAgent                     # noqa: E402
from unorules.runs.simulation import RunSpec, game_seed, make_game   # noqa: E402


class SeeingSearch(ISMCTSAgent):
    def __init__(self, rng, see, **kw):
        super().__init__(rng, **kw)
        self.see = see

    def determinize(self, state, me):
        if self.see == "nothing":
            return super().determinize(state, me)
        if self.see == "colors":
            return deal_by_colors(state, me, self.rng)
        s = state.clone()
        if self.see == "hands":
            self.rng.shuffle(s.draw_pile)
        s.rng.seed(self.rng.random())
        return s


def deal_by_colors(state, me, rng):
    """resample_hidden, then each other hand dealt again from the unseen cards keeping its true
    colors (wilds count as a color of their own)."""
    s = state.resample_hidden(me, rng)
    others = [q for q in range(s.n) if q != me]
    by_color = {}
    for c in [c for q in others for c in state.hands[q]] + state.draw_pile:
        by_color.setdefault(state.color_of(c), []).append(c)
    for cards in by_color.values():
        rng.shuffle(cards)
    for q in others:
        s.hands[q] = [by_color[state.color_of(c)].pop() for c in state.hands[q]]
    s.draw_pile = [c for cards in by_color.values() for c in cards]
    rng.shuffle(s.draw_pile)
    return s


def one(job):
    i, args = job
    game = make_game(RunSpec("official", players=4, agents=("greedy",), rounds="single"))
    seed = game_seed(args.seed, i)
    s = game.new_state(seed)
    if args.agent == "search":
        budget = {"seconds": args.seconds} if args.seconds else {"determinizations": args.determinizations}
        me = SeeingSearch(random.Random(seed + 1), args.see, confidence=None if args.unguarded else args.confidence,
                          infer=not args.no_infer, generated=not args.engine_playouts, **budget)
    else:
        me = make_agent(args.agent, random.Random(seed + 1))
    agents = [me] + [make_agent("greedy", random.Random(seed + k)) for k in (2, 3, 4)]
    while not s.terminal:
        d = s.decision
        if d.probs is not None:
            s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
            continue
        s.apply_unchecked(agents[d.player].act(s, d.options))
    return 0 in s.winners


def playout_speed(args):
    """Playouts a second, the engine's against generated code's (codegen/playouts.py), from the same
    positions (decisions of seat 0 in greedy games of official), the same determinizations and
    seeds, in alternating windows of one process; the median of the windows' ratios."""
    import statistics
    game = make_game(RunSpec("official", players=4, agents=("greedy",), rounds="single"))
    positions, rng = [], random.Random(args.seed)
    greedy = make_agent("greedy", random.Random(1))
    for g in range(40):
        s = game.new_state(game_seed(args.seed, g))
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
                continue
            if len(d.options) > 1 and rng.random() < 0.3:
                det = s.resample_hidden(d.player, rng)
                positions.append((det, rng.choice(det.decision.options), rng.random(), d.player))
            s.apply_unchecked(greedy.act(s, d.options))
    searches = {"engine": ISMCTSAgent(1, generated=False), "generated": ISMCTSAgent(1)}
    rates = {k: [] for k in searches}
    for _ in range(args.repeats):
        for label, search in searches.items():
            t, n = time.perf_counter(), 0
            while time.perf_counter() - t < args.window:
                for det, action, seed, me in positions:
                    search._value(det, action, seed, me)
                n += len(positions)
            rates[label].append(n / (time.perf_counter() - t))
    why = searches["generated"].slow_why
    print(f"{len(positions)} positions of official (4 players), greedy playouts to the round's end"
          + (f"; generated playouts not used: {why}" if why else ""))
    for label, r in rates.items():
        ratio = statistics.median(a / b for a, b in zip(r, rates["engine"]))
        print(f"  {label:<10} {statistics.median(r):>8,.0f} playouts/s   {ratio:.2f}x the engine's")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--agent", default="search", help="`search`, or a named agent for seat 0 (greedy, ...)")
    ap.add_argument("--see", choices=("nothing", "colors", "hands", "all"), default="nothing")
    ap.add_argument("--determinizations", type=int, default=10, help="a budget a decision")
    ap.add_argument("--seconds", type=float, default=None, help="a time budget a decision instead")
    ap.add_argument("--unguarded", action="store_true")
    ap.add_argument("--confidence", type=float, default=2.0, help="the guard: standard errors a gain must clear")
    ap.add_argument("--no-infer", action="store_true", help="deal the other hands without what the public play tells")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--engine-playouts", action="store_true", help="play the search's playouts on the engine only")
    ap.add_argument("--playout-speed", action="store_true",
                    help="measure playouts a second, engine against generated code, and stop")
    ap.add_argument("--repeats", type=int, default=5, help="--playout-speed: alternating windows")
    ap.add_argument("--window", type=float, default=2.0, help="--playout-speed: seconds a window")
    args = ap.parse_args()
    if args.playout_speed:
        playout_speed(args)
        return
    start = time.time()
    with Pool(args.workers) as pool:
        won = sum(pool.map(one, [(i, args) for i in range(args.games)], chunksize=1))
    rate = won / args.games
    half = 1.96 * math.sqrt(rate * (1 - rate) / args.games)
    guard = ", unguarded" if args.unguarded else f", guard {args.confidence:g} SE" if args.confidence != 2.0 else ""
    print(f"seat 0 ({args.agent}, sees {args.see}{guard}): "
          f"{won}/{args.games} = {rate:.3f} ± {half:.3f}  ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
