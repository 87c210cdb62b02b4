#!/usr/bin/env python3
"""Two games in one thread, a turn of each in turn: does one game's turn fill the other's waits?
(issue 31: "two games interleaved", the last untried idea of session 27's list)

The experiment is made on the sketch's hand-written numba game (../shared/bench/native_sketch/
uno_numba.py), where it is cheapest to write: SETUP and TURN below are its play_one, copied, with
each `continue` of its turn loop a `break` out of a one-pass loop and each `return` the end of
that game. play_k is built from them for K games at once (each name suffixed by its game), and
must play the very games the sketch plays, game for game (or the script stops); then both are
timed in alternating repeats. Were a turn bound by the chain its decisions wait on, a second game
would fill those waits; a turn bound by issue width or by mispredicts (which flush both games'
work) gains nothing. Session 29's run is in docs/performance.md.

    python bench/native_interleave.py                 # 2 games, 200,000 games a repeat
    python bench/native_interleave.py --k 3 --repeats 9

Only developers' code becomes source here (the fixed text below).
"""
import argparse
import re
import statistics
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent

# ---- the sketch's play_one, in two parts (its setup, and one turn of its loop) ---------------
SETUP = '''
for p in range(n):
    for f in range(NF):
        counts[p, f] = 0
    masks[p] = 0
    sizes[p] = 7
for i in range(NDECK):
    pile[i] = DECK[i]
npile = NDECK
for p in range(n):
    for _ in range(7):
        s, j = below(s, npile)
        f = pile[j]
        npile -= 1
        pile[j] = pile[npile]
        counts[p, f] += 1
        masks[p] |= np.int64(1) << f
while True:
    s, j = below(s, npile)
    f = pile[j]
    if f != WD4F:
        npile -= 1
        pile[j] = pile[npile]
        break
disc[0] = f
ndisc = 1
cur = 0
d = 1
k = FKIND[f]
if k == 13:
    s, colour = below(s, 4)
    top = 13
else:
    colour = FCOL[f]
    top = k
    if k == 10:
        cur = 1
    elif k == 11:
        d = -1
        cur = n - 1
    elif k == 12:
        for _ in range(2):
            s, j = below(s, npile)
            g = pile[j]
            npile -= 1
            pile[j] = pile[npile]
            counts[0, g] += 1
            masks[0] |= np.int64(1) << g
        sizes[0] += 2
nact = 0
alive = True
win = -2
'''

TURN = '''
nact += 1
t = colour * 15 + top
hm = masks[cur]
legal = hm & MATCH[t]
if (legal & WD4BIT) and (hm & BLOCK[t]):
    legal ^= WD4BIT
fu = legal & FUSED
total = popcount(legal ^ fu) + 4 * popcount(fu)
chosen = 0
if total:
    s, i = below(s, total)
    while True:
        low = legal & -legal
        w = 4 if (low & FUSED) else 1
        if i < w:
            break
        i -= w
        legal ^= low
    f = ctz(low)
    chosen = i
    counts[cur, f] -= 1
    if counts[cur, f] == 0:
        masks[cur] ^= low
    sizes[cur] -= 1
    if sizes[cur] == 0:
        win = cur
        alive = False
        break
else:
    if npile == 0:
        for i in range(ndisc):
            pile[i] = disc[i]
        npile = ndisc
        ndisc = 0
        if npile == 0:
            win = -1
            alive = False
            break
    s, j = below(s, npile)
    f = pile[j]
    npile -= 1
    pile[j] = pile[npile]
    if f >= WILDF:
        disc[ndisc] = f
        ndisc += 1
        s, colour = below(s, 4)
        top = FKIND[f]
        cur += d
        if cur == n:
            cur = 0
        elif cur < 0:
            cur = n - 1
        break
    if FCOL[f] != colour:
        counts[cur, f] += 1
        masks[cur] |= np.int64(1) << f
        sizes[cur] += 1
        cur += d
        if cur == n:
            cur = 0
        elif cur < 0:
            cur = n - 1
        break
disc[ndisc] = f
ndisc += 1
k = FKIND[f]
top = k
penalty = 0
if k >= 13:
    colour = chosen
    if k == 14:
        penalty = 4
else:
    colour = FCOL[f]
    if k == 10:
        cur += d
        if cur == n:
            cur = 0
        elif cur < 0:
            cur = n - 1
    elif k == 11:
        d = -d
    elif k == 12:
        penalty = 2
cur += d
if cur == n:
    cur = 0
elif cur < 0:
    cur = n - 1
if penalty:
    if npile < penalty:
        for i in range(ndisc):
            pile[npile + i] = disc[i]
        npile += ndisc
        ndisc = 0
    got = 0
    for _ in range(min(penalty, npile)):
        s, j = below(s, npile)
        g = pile[j]
        npile -= 1
        pile[j] = pile[npile]
        counts[cur, g] += 1
        masks[cur] |= np.int64(1) << g
        got += 1
    sizes[cur] += got
    cur += d
    if cur == n:
        cur = 0
    elif cur < 0:
        cur = n - 1
'''
NAMES = ("s cur d colour top nact npile ndisc t hm legal fu total chosen i low w f g j k penalty got p "
         "alive win counts masks sizes pile disc").split()       # each game's own


def suffixed(text: str, x: str) -> str:
    return re.sub(r"\b(" + "|".join(NAMES) + r")\b", lambda m: m.group(1) + "_" + x, text)


def indented(text: str, n: int) -> str:
    return textwrap.indent(text, " " * n)


def make(k: int, sketch: dict):
    """A compiled range_k(seed, count, n, out_nact, out_win): games 0..count-1, k at a time, from
    the sketch's names (its helpers and tables)."""
    xs = [chr(ord("a") + q) for q in range(k)]
    arrays = ", ".join(f"counts_{x}, masks_{x}, sizes_{x}, pile_{x}, disc_{x}" for x in xs)
    play = f"def play_k(seeds, g0, n, {arrays}):\n"
    for q, x in enumerate(xs):
        play += f"    s_{x} = game_state(seeds, g0 + {q})\n" + indented(suffixed(SETUP, x), 4)
    play += "    while " + " or ".join(f"alive_{x}" for x in xs) + ":\n"
    for x in xs:
        play += f"        if alive_{x}:\n            for _ in range(1):\n" + indented(suffixed(TURN, x), 16)
    play += "    return (" + ", ".join(f"nact_{x}, win_{x}" for x in xs) + ")\n"
    ns = dict(sketch, np=np)
    exec(play, ns)
    ns["play_k"] = njit(ns["play_k"])
    alloc = "".join(f"    counts_{x} = np.zeros((n, NF), np.int32)\n    masks_{x} = np.zeros(n, np.int64)\n"
                    f"    sizes_{x} = np.zeros(n, np.int64)\n    pile_{x} = np.zeros(NDECK, np.int64)\n"
                    f"    disc_{x} = np.zeros(NDECK, np.int64)\n" for x in xs)
    batch = (f"def range_k(seed, count, n, out_nact, out_win):\n{alloc}"
             f"    for g in range(0, count, {k}):\n"
             f"        r = play_k(seed, g, n, {arrays})\n"
             + "".join(f"        out_nact[g + {q}] = r[{2 * q}]\n        out_win[g + {q}] = r[{2 * q + 1}]\n"
                       for q in range(k)))
    exec(batch, ns)
    return njit(ns["range_k"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--k", type=int, default=2, help="games interleaved")
    ap.add_argument("--games", type=int, default=200_000, help="games per timed repeat")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "bench"), help="folder of the reference scripts")
    args = ap.parse_args()
    sketch = Path(args.shared) / "native_sketch"
    if not (sketch / "uno_numba.py").exists():
        sys.exit(f"no sketch at {sketch}")
    sys.path.insert(0, str(sketch))
    import uno_numba as u
    import uno_tables
    sketch = {name: getattr(u, name) for name in ("popcount", "ctz", "below", "game_state")}
    sketch.update({name: getattr(uno_tables, name) for name in
                   ("DECK", "FCOL", "FKIND", "MATCH", "BLOCK", "NF", "NDECK", "WILDF", "WD4F", "WD4BIT", "FUSED")})
    games = args.games - args.games % args.k
    rk = make(args.k, sketch)
    a1, w1 = np.zeros(games, np.int64), np.zeros(games, np.int64)
    a2, w2 = np.zeros(games, np.int64), np.zeros(games, np.int64)
    u.warm(1)
    rk(1, args.k, 4, a2[:args.k], w2[:args.k])                    # compiled before the clock
    rates = {"one": [], "k": []}
    for rep in range(args.repeats):
        for name in (("one", "k") if rep % 2 == 0 else ("k", "one")):
            t0 = time.perf_counter()
            if name == "one":
                u.play_batch(1, games, 4, a1, w1)
            else:
                rk(1, games, 4, a2, w2)
            rates[name].append(games / (time.perf_counter() - t0))
    if not ((a1 == a2).all() and (w1 == w2).all()):
        sys.exit("the interleaved games are not the sketch's: the copy of its turn is wrong")
    m1, mk = statistics.median(rates["one"]), statistics.median(rates["k"])
    print(f"the sketch's game, one at a time: {m1:12,.0f} games/s")
    print(f"{args.k} games interleaved, a turn each: {mk:12,.0f} games/s  ({mk / m1:.3f}; each repeat: "
          f"{[round(b / a, 3) for a, b in zip(rates['one'], rates['k'])]})")


if __name__ == "__main__":
    main()
