"""A native module's source: the lowered functions (lower.py), the tables they read (tables.py),
the helpers made for this game (its hand's points, its seats), and `play_batch`, the loop over
a batch of games that writes each game's row and rounds. Built only from names the generator and
the lowering make and `repr` of numbers (Lowering.check and tables.emit hold that)."""
from __future__ import annotations

import ast

from .batch import games_loop
from .indexes import indexes_unsigned
from .loops import faces_as_bit_loops, option_walks_as_picks
from .lower import ROW_FIELDS, Lowering
from .predicate import effects_without_branches
from .scratch import batch_arrays, copies_as_calls, picks_as_below, ranges_as_arrays
from .rows import rows_as_stacks
from .stacks import as_stacks, lists_as_stacks
from .syntax import parse_stmts
from .tops import tops_in_locals
from .tables import NotNative, emit, seat_tables
from .wide import HELPERS as WIDE_HELPERS, widen_masks, words_of

RUNTIME = ("JIT", "NONE", "NativeStop", "n_rand", "n_below", "n_rng", "n_reseed", "n_popcount", "n_bitlen", "n_truthy",
           "n_full", "n_full2", "n_copy1", "n_copy_row", "n_sort", "n_bounded", "n_modulo", "n_faces_in", "n_held", "n_chance_pick", "n_stack_new",
           "n_stack_of", "n_stack_load", "n_cell", "n_pushed", "n_popped", "n_stack_pop", "n_stack_has", "n_stack_remove", "n_stack_pop_at", "n_stack_copy", "n_stack_prepend",
           "n_stack_set1", "n_stack_under_top", "n_rows_new", "n_rows_sort", "n_nth_bit", "n_top") + WIDE_HELPERS
ARITHMETIC = ("n_times", "n_plus", "n_minus")      # a rule's checked arithmetic (arithmetic.py)
BUILTINS = {"range", "len", "int", "float", "min", "max", "abs", "enumerate", "list", "set", "bool", "sum", "any",
            "Exception", "np"}
MADE_HERE = {"n_hand_points_of", "n_seat", "shuffle", "reshuffle", "play_game", "CYCLE", "CYCLE_END"}
MAX_PLAYERS = 63                # the followed players are one int64's bits 0..62 (bit 63 is its sign)
ROW = len(ROW_FIELDS)           # then the scores, then who sits at each seat
HAND_POINTS = "def n_hand_points_of(g, q):\n    t = 0\n    for f in range(NFACES):\n        t += POINTS[f] * g[q, f]\n    return t"


def module_source(program, players: int) -> str:
    """The native module of a counted Program (its source, and the tables it was loaded with)."""
    if players > MAX_PLAYERS:
        raise NotNative(f"{players} players (a game's followed players are one machine word: at most {MAX_PLAYERS})")
    ns = program.namespace
    words = words_of(ns["NFACES"])                         # a mask in one machine word, or two (wide.py)
    fns = Lowering(program.source, ns).lower()
    fns = as_stacks(fns, len(ns["DECK"]))
    fns[-1] = lists_as_stacks(fns[-1], len(ns["DECK"]) + 4 * players + 8)
    fns[-1] = rows_as_stacks(fns[-1], 8 * len(ns["DECK"]) + 8)          # options: a face's colors, called or not
    fns[-1] = widen_masks(fns[-1], {k: v for k, v in ns.items() if k.isupper()}, ns["NFACES"])
    if words == 1:
        fns[-1] = option_walks_as_picks(fns[-1], ns)
    fns[-1], scratch = batch_arrays(fns[-1])              # play_game's arrays, made once per batch
    arrays = {k for k, v in ns.items() if k.isupper() and isinstance(v, (list, tuple))}
    fns = [ranges_as_arrays(faces_as_bit_loops(picks_as_below(copies_as_calls(f, arrays)))) for f in fns]
    fns[-1] = games_loop(fns[-1])                          # the batch's loop, in play_game (batch.py)
    fns[-1] = _arrays_made_first(fns[-1], scratch)
    fns[-1] = tops_in_locals(fns[-1], fns[:-1])            # a pile's top card in a local (tops.py)
    tables = {k: v for k, v in ns.items() if k.isupper()}
    fns[-1], guards = effects_without_branches(fns[-1], tables)   # simple effects as selects (predicate.py)
    fns = [indexes_unsigned(f) for f in fns]               # last: no wrap of a negative index (indexes.py)
    stores, loads = set(), set()
    for f in fns:
        stores |= {a.arg for a in f.args.args}
        for node in ast.walk(f):
            if isinstance(node, ast.Name):
                (stores if isinstance(node.ctx, ast.Store) else loads).add(node.id)
    for _, made in scratch:                                # the shapes play_game allocates with
        loads |= {n.id for n in ast.walk(ast.parse(made)) if isinstance(n, ast.Name)} - {"np"}
    wanted = sorted(loads - stores - set(RUNTIME) - set(ARITHMETIC) - BUILTINS - (MADE_HERE - {"CYCLE", "CYCLE_END"}))
    seats = seat_tables(ns["OTHERS"], players)
    points = ns["POINTS"]
    if any(type(v) is not int for v in points):
        raise NotNative("cards whose points are not whole numbers")
    consts = {"N": players, "NFACES": ns["NFACES"], "POINTS": points}
    for name in wanted:
        if name in guards:
            consts[name] = guards[name]
        elif name in seats:
            consts[name] = seats[name]
        elif name in ns and name.isupper():
            consts[name] = ns[name]
        else:
            raise NotNative(f"the name `{name}`")
    lines = ['"""unorules native code (generated; numba). Any edit is lost: the file is named by its hash."""',
             "import numpy as np", "from numba import njit",
             f"from unorules.native.runtime import {', '.join(RUNTIME)}",
             f"from unorules.native.arithmetic import {', '.join(ARITHMETIC)}", ""]
    lines += [emit(name, value, words) for name, value in consts.items()]
    lines += ["", "",
              "@njit(**JIT)", ast.unparse(indexes_unsigned(parse_stmts(HAND_POINTS)[0])), "", "",
              "@njit(**JIT)", "def n_seat(q):", "    if q < 0 or q >= N:", "        raise NativeStop()", "    return q"]
    for f in fns:
        lines += ["", "", "@njit(**JIT)", ast.unparse(f)]
    lines += ["", "", "@njit(**JIT)",
              "def play_batch(seeds, AG, out, rounds, starts, at, now):",
              '    """Games seeds[0..]: each one\'s row into out, its rounds into rounds from `at` on.',
              '    Returns how many were played (fewer when the rounds buffer is full) and the next `at`;',
              '    now[0] is the game being played and now[1] where its rounds begin, should one raise',
              '    (an error, a stall): the games before it in the batch are written."""',
              "    ag = AG.copy()"]
    lines += ["    return play_game(seeds, AG, ag, out, rounds, starts, at, now)", ""]
    return "\n".join(lines)


def _arrays_made_first(fn: ast.FunctionDef, scratch: list[tuple[str, str]]) -> ast.FunctionDef:
    """The batch's loop with the arrays batch_arrays made its parameters allocated at its top
    instead, once per batch as before. Made in the function that uses them, their shapes are
    constants to LLVM: a bounds check compares with a number, where a parameter's shape had to be
    kept in a register or on the stack (rlcard: play_game's stack references 1,289 -> 757 in its
    machine code, +3% games/s)."""
    names = {name for name, _ in scratch}
    fn.args.args = [a for a in fn.args.args if a.arg not in names]
    fn.body = parse_stmts("".join(f"{name} = {allocation}\n" for name, allocation in scratch)) + fn.body
    return ast.fix_missing_locations(fn)
