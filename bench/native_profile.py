#!/usr/bin/env python3
"""Where a native game's instructions and branches go, counted by valgrind (issue 31).

This machine gives no hardware counters (perf stat: "not supported"). valgrind's callgrind runs
the compiled code on a simulated CPU and counts, for each machine instruction, how often it ran,
and for each conditional jump how often it jumped. This script runs generated rlcard code (or
another rulebook's) and, beside it, the sketch's hand-written numba game under callgrind, finds the
compiled game function (the hottest compiled function: play_game, play_one), disassembles it from
numba's cache, and prints a game's

  - instructions in that function, conditional jumps run and taken, unconditional jumps;
  - a crude count of mispredicts: min(taken, not taken) for each jump (the best a predictor can
    do on a branch that is a coin toss of that bias and unlike any other; a real predictor does
    better where branches agree with one another);
  - with --branches N, the N jumps with the most of them; with --blocks X, every straight run of
    code that runs X times a game or more, with its instructions (--listing);
  - with --predictor, the mispredicts of callgrind's simulated predictor (--branch-sim: 2-bit
    counters indexed by the jump's address and the last jumps' outcomes, and a table of indirect
    targets): a better guess than the crude count, still not this machine's predictor.

Valgrind's CPU is not this machine's: numba compiles the code again for it (its cache keeps both),
so the counts are those of code compiled for valgrind's CPU, alike in shape, not byte for byte.
Needs valgrind and objdump (binutils). A run takes a few minutes: python starts under valgrind.

    python bench/native_profile.py                              # rlcard, random seats, and the sketch
    python bench/native_profile.py --branches 20 --blocks 10 --listing
    python bench/native_profile.py --rulebook official --agents greedy --no-hand
    python bench/native_profile.py --predictor --branches 15    # a simulated predictor's misses

Only developers' code runs here (the generated program and the sketch); no rulebook text becomes source.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# ---- the child: plays the games under valgrind ------------------------------------------------

def child(args):
    sys.path.insert(0, str(ROOT))
    import numpy as np
    if args.which == "hand":
        sys.path.insert(0, args.hand_dir)
        import uno_numba
        uno_numba.warm(1)
        acts, wins = np.zeros(args.games, np.int64), np.zeros(args.games, np.int64)
        uno_numba.play_batch(1, args.games, 4, acts, wins)
        print(f"CACHE {Path(args.hand_dir) / '__pycache__'}")
        print(f"TURNS {acts.mean()}")
        return
    from unorules.runs.simulation import RunSpec, make_game, native_program
    spec = RunSpec(args.rulebook, players=args.players, agents=tuple(args.agents.split(",")),
                   rounds=args.rounds, simulator="native")
    program, why = native_program(make_game(spec), spec)
    if program is None:
        sys.exit(f"{args.rulebook} is not native: {why}")
    program._compile()
    batch = min(10_000, args.games)
    seeds = np.arange(batch, dtype=np.int64) * 7919 + 12345
    turns = []
    for k in range(max(1, args.games // batch)):
        out = program._play(seeds + k * 131, reuse=True)[0]
        turns.append(out[:, 7].mean())                 # turns with a decision
    print(f"CACHE {Path(program.module.__file__).parent / '__pycache__'}")
    print(f"MODULE {Path(program.module.__file__).stem}")
    print(f"TURNS {sum(turns) / len(turns)}")


# ---- reading callgrind's file -----------------------------------------------------------------

def _position(token: str, current: int) -> int:
    if token.startswith("0x"):
        return int(token, 16)
    if token[0] == "+":
        return current + int(token[1:])
    if token[0] == "-":
        return current - int(token[1:])
    return current                                       # "*": the same


def read_callgrind(path: Path):
    """(instruction counts by address, {jump address: [taken, run, target]}, {jump address: count}
    of unconditional jumps, {function start: instructions}, mispredicts by address) of a callgrind
    file written with --dump-instr=yes --collect-jumps=yes (and --branch-sim=yes for the last:
    the conditional and indirect jumps its simulated predictor missed; empty without it)."""
    counts, jcnd, jumps = collections.Counter(), {}, collections.Counter()
    per_fn, missed = collections.Counter(), collections.Counter()
    events = ["Ir"]
    fn_start, fn_ids = None, {}              # a compiled function has no name: callgrind names it by its start
    addr, skip = 0, False
    for line in path.open():
        line = line.rstrip("\n")
        if line.startswith("events:"):
            events = line.split()[1:]
            continue
        if line.startswith(("fn=", "cfn=")):                 # an id is named where it first appears
            m = re.match(r"c?fn=\((\d+)\)(?: (.*))?$", line)
            if m and m.group(2) is not None:
                named = re.fullmatch(r"0x([0-9a-f]+)", m.group(2).strip())
                fn_ids[m.group(1)] = int(named.group(1), 16) if named else None
            if line.startswith("fn="):
                fn_start = fn_ids.get(m.group(1)) if m else None
            continue
        if line.startswith("calls="):
            skip = True
            continue
        if line.startswith("jcnd="):
            m = re.match(r"jcnd=(\d+)/(\d+) (\S+)", line)
            entry = jcnd.setdefault(addr, [0, 0, None])
            entry[0] += int(m.group(1))
            entry[1] += int(m.group(2))
            entry[2] = _position(m.group(3), addr)
            continue
        if line.startswith("jump="):
            jumps[addr] += int(line.split("=")[1].split()[0])
            continue
        if not line or line[0] not in "0123456789+-*":
            continue
        tokens = line.split()
        addr = _position(tokens[0], addr)
        if skip:
            skip = False
            continue
        values = dict(zip(events, (int(t) for t in tokens[2:] if t.isdigit())))
        if values.get("Ir"):
            counts[addr] += values["Ir"]
            if fn_start is not None:
                per_fn[fn_start] += values["Ir"]
        if values.get("Bcm") or values.get("Bim"):
            missed[addr] += values.get("Bcm", 0) + values.get("Bim", 0)
    return counts, jcnd, jumps, per_fn, missed


# ---- numba's cache: the object code of a compiled function ------------------------------------

def elf_of(nbc: Path) -> bytes:
    """The object file numba keeps in a cache entry (an ELF image inside its pickle)."""
    data = nbc.read_bytes()
    at = data.find(b"\x7fELF")
    if at < 0:
        raise ValueError(f"no object code in {nbc}")
    shoff, = struct.unpack_from("<Q", data, at + 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, at + 0x3A)
    return data[at:at + shoff + shentsize * shnum]


def functions_of(obj: Path):
    """{name: (offset, size)} of the object's functions."""
    out = {}
    for line in subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[2] == "F":
            out[parts[-1]] = (int(parts[0], 16), int(parts[-2], 16))
    return out


def listing(obj: Path, start: int, size: int):
    """[(offset, text)] of the function's instructions."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                           f"--stop-address={start + size:#x}", str(obj)], capture_output=True, text=True, check=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if m:
            rows.append((int(m.group(1), 16), re.sub(r"<[^>]*\+(0x[0-9a-f]+)>", r"<+\1>", m.group(2))))
    return rows


def locate(cache: Path, stem_glob: str, counts, per_fn, work: Path):
    """The hottest compiled function that some cache entry matching stem_glob holds: (object file,
    function start in the object, its size, its start in the run, its listing). A cache entry holds
    code for one CPU; the one that fits the counted addresses (every one an instruction's) wins."""
    starts = [a for a, n in per_fn.most_common(40) if n >= 1000]
    near = {start: {a - start: c for a, c in counts.items() if start <= a < start + (1 << 20)} for start in starts}
    best = None
    for n, nbc in enumerate(sorted(cache.glob(stem_glob))):
        try:
            obj = work / f"entry{n}.o"
            obj.write_bytes(elf_of(nbc))
            fns = functions_of(obj)
        except (ValueError, subprocess.CalledProcessError):
            continue
        for name, (off, size) in fns.items():
            if name.startswith(("_ZN7cpython", "cfunc.", "NRT_")) or size < 256:
                continue
            rows = None
            for run_start in starts:
                ran = {o: c for o, c in near[run_start].items() if o < size}
                if sum(ran.values()) < 1000:
                    continue
                rows = rows or listing(obj, off, size)
                offsets = {o - off for o, _ in rows}
                fit = sum(c for o, c in ran.items() if o in offsets) / sum(ran.values())
                score = (fit, sum(ran.values()))
                if best is None or score > best[0]:
                    best = (score, obj, off, size, run_start, rows)
    if best is None or best[0][0] < 0.999:
        raise SystemExit(f"no cache entry in {cache} fits the counted code")
    return best[1:]


def report(label, games, turns, counts, jcnd, jumps, missed, obj, off, size, run_start, rows, args):
    at = {o - off: t for o, t in rows}
    ran = {a - run_start: c for a, c in counts.items() if run_start <= a < run_start + size}
    instr = sum(ran.values())
    conds = [(o - run_start, e) for o, e in jcnd.items() if run_start <= o < run_start + size]
    run = sum(e[1] for _, e in conds)
    taken = sum(e[0] for _, e in conds)
    miss = sum(min(e[0], e[1] - e[0]) for _, e in conds)
    uncond = sum(c for o, c in jumps.items() if run_start <= o < run_start + size)
    print(f"{label}: {turns:.1f} turns a game")
    print(f"  a game: {instr / games:8.0f} instructions, {run / games:6.1f} conditional jumps "
          f"({taken / games:.1f} taken), {uncond / games:6.1f} unconditional, "
          f"crude mispredicts {miss / games:5.1f}")
    print(f"  a turn: {instr / games / turns:8.1f} instructions, {run / games / turns:6.1f} conditional jumps, "
          f"{(taken + uncond) / games / turns:.1f} taken jumps in all")
    if args.predictor:
        # callgrind puts a jump's cost on the jump instruction itself: sum over the function's range
        sim = {a - run_start: c for a, c in missed.items() if run_start <= a < run_start + size}
        print(f"  simulated predictor: {sum(sim.values()) / games:6.1f} mispredicts a game, "
              f"{sum(sim.values()) / games / turns:.2f} a turn")
        if args.branches:
            print(f"  the {args.branches} jumps it missed most (a game):")
            for o, c in sorted(sim.items(), key=lambda x: -x[1])[:args.branches]:
                e = dict(conds).get(o, [0, 0])
                print(f"    {o:6x}  run {e[1] / games:7.2f}  taken {e[0] / max(e[1], 1):.2f}  "
                      f"missed {c / games:6.2f}  {at.get(o, '?')[:60]}")
    if args.branches:
        print(f"  the {args.branches} jumps with the most crude mispredicts (a game):")
        for o, e in sorted(conds, key=lambda x: -min(x[1][0], x[1][1] - x[1][0]))[:args.branches]:
            print(f"    {o:6x}  run {e[1] / games:7.2f}  taken {e[0] / max(e[1], 1):.2f}  "
                  f"mispredicts {min(e[0], e[1] - e[0]) / games:6.2f}  {at.get(o, '?')[:60]}")
    if args.blocks is not None:
        print(f"  straight runs of code that run {args.blocks} times a game or more:")
        block = None
        blocks = []
        for o, t in rows:
            c = ran.get(o - off, 0) / games
            if block is None or abs(c - block[1]) > 1e-9:
                block = [o - off, c, []]
                blocks.append(block)
            block[2].append(t)
        for o, c, ins in blocks:
            if c >= args.blocks:
                print(f"    {o:6x}  x{c:6.2f}  {len(ins):3d} instructions  {c * len(ins):7.1f} a game")
                if args.listing:
                    for t in ins:
                        print(f"              {t[:90]}")


def profile(which, args, work: Path, hand_dir: Path | None):
    out = work / f"callgrind.{which}"
    cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes",
           *(["--branch-sim=yes"] if args.predictor else []), f"--callgrind-out-file={out}", sys.executable, str(Path(__file__).resolve()), "--child", which,
           "--games", str(args.games), "--rulebook", args.rulebook, "--agents", args.agents,
           "--players", str(args.players), "--rounds", args.rounds]
    env = dict(os.environ)
    if hand_dir is not None:
        cmd += ["--hand-dir", str(hand_dir)]
        env["UNO_NUMBA_CACHE"] = "1"
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    facts = dict(line.split(" ", 1) for line in done.stdout.splitlines() if line[:5] in ("CACHE", "MODUL", "TURNS"))
    if done.returncode or "CACHE" not in facts:
        sys.exit(f"the run under valgrind failed:\n{done.stderr[-3000:]}")
    counts, jcnd, jumps, per_fn, missed = read_callgrind(out)
    glob = "uno_numba.play_*.nbc" if which == "hand" else f"{facts['MODULE']}.play_*.nbc"
    obj, off, size, run_start, rows = locate(Path(facts["CACHE"]), glob, counts, per_fn, work)
    games = args.games if which == "hand" else max(1, args.games // min(10_000, args.games)) * min(10_000, args.games)
    label = ("the sketch's hand-written numba game" if which == "hand"
             else f"generated code: {args.rulebook}, {args.agents} seats, {args.players} players")
    report(label, games, float(facts["TURNS"]), counts, jcnd, jumps, missed, obj, off, size, run_start, rows, args)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rulebook", default="rlcard")
    ap.add_argument("--agents", default="random")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", default="single")
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--no-hand", action="store_true", help="leave out the sketch's hand-written game")
    ap.add_argument("--branches", type=int, default=0, help="list this many of the least predictable jumps")
    ap.add_argument("--blocks", type=float, help="list straight runs of code that run this often a game")
    ap.add_argument("--listing", action="store_true", help="with --blocks: their instructions")
    ap.add_argument("--predictor", action="store_true",
                    help="simulate a branch predictor (callgrind --branch-sim): its mispredicts a game and, "
                         "with --branches, the jumps it missed most")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "bench"), help="folder of the reference scripts")
    ap.add_argument("--child", choices=("generated", "hand"), help=argparse.SUPPRESS)
    ap.add_argument("--hand-dir", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.which = args.child
        return child(args)
    for tool in ("valgrind", "objdump"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is needed (valgrind; objdump from binutils)")
    sketch = Path(args.shared) / "native_sketch"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        profile("generated", args, work, None)
        if not args.no_hand:
            if not (sketch / "uno_numba.py").exists():
                print(f"(no sketch at {sketch})")
                return
            hand_dir = work / "sketch"                  # a copy: the sketch's folder is not written to
            hand_dir.mkdir()
            for name in ("uno_numba.py", "uno_tables.py", "common.py"):
                shutil.copy(sketch / name, hand_dir / name)
            profile("hand", args, work, hand_dir)


if __name__ == "__main__":
    main()
