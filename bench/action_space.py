#!/usr/bin/env python3
"""The compact action space (issue 30, item 1): for every shipped rulebook, module and custom card
(four players), its size against the generic superset the space was before, and the ids whole
random games ever make legal. Every legal action must lie inside the space (an action outside it
raises); exit code 1 if one does not.

    python bench/action_space.py --games 2000
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unorules.engine import Game                                     # noqa: E402
from unorules.engine.compiler import compile_rulebook                # noqa: E402
from unorules.language.ir import all_actions                         # noqa: E402
from unorules.language.loader import load, shipped_names             # noqa: E402


def superset_size(rules, players) -> int:
    """The size of the generic space before issue 30: every kind of action for every face."""
    faces = len(rules.faces)
    all_colors = [c for side in rules.side_colors for c in side]
    piles = 1 if len(rules.piles) == 1 else len(rules.piles)
    n = 0
    for kind in ("play", "respond", "jump_in", "any_time"):
        for f in range(faces):
            k = rules.faces[f][1]
            colors = (0 if kind == "play" else 1) + len(all_colors) if rules.fused_color[k] else 1
            n += (piles if kind == "play" else 1) * colors * 2
        n += kind != "play"
    if rules.turn.get("multi_play"):
        for k in range(len(rules.kinds)):
            for side, _ in enumerate(rules.side_colors):
                same = len({f for f in rules.deck[side] if rules.faces[f][1] == k})
                n += sum(same ** m for m in range(2, 5)) * 2
    n += 3 + 4 + players + 1 + players + len(all_colors) + faces + len(rules.kinds)
    options, outcomes = [], ["exact", "missed"]
    for a in all_actions(rules.ir):
        if a["kind"] == "choose_option":
            options += a["options"]
        elif a["kind"] == "chance":
            outcomes += [o["name"] for o in a["outcomes"]]
    return n + len(dict.fromkeys(options)) + len(dict.fromkeys(outcomes))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rulebooks", default="", help="comma-separated names (default: every shipped file)")
    ap.add_argument("--part", default="1/1", help="K/N: the K-th of N equal parts of the list (to run N at once)")
    args = ap.parse_args()
    failed = False
    print(f"{'rulebook':<22}{'superset':>9}{'compact':>9}{'legal in games':>16}")
    names = [n for n in args.rulebooks.split(",") if n] or sorted(shipped_names())
    k, n = map(int, args.part.split("/"))
    for name in names[k - 1::n]:
        game = Game(compile_rulebook(load(name)), args.players, rounds="single")
        seen = set()
        try:
            for seed in range(args.games):
                s = game.new_state(seed)
                rng = random.Random(seed)
                while not s.terminal:
                    ids = s.legal_action_ids()
                    seen.update(ids)
                    if s.is_chance_node():
                        s.apply_action(rng.choices(s.decision.options, s.decision.probs)[0])
                    else:
                        s.apply_action(rng.choice(ids))
        except ValueError as e:
            failed = True
            print(f"{name}: {e}", file=sys.stderr)
        print(f"{name:<22}{superset_size(game.rules, args.players):>9}{game.num_distinct_actions():>9}{len(seen):>16}",
              flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
