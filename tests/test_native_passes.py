"""The native lowering's passes that take numba's bookkeeping out of the hot path (scratch.py,
stacks.py, rows.py, loops.py, predicate.py, the round lists and the unrolled list loops of lower.py). They are syntax-tree passes and
need no numba: these tests run everywhere. That the lowered code still plays its reference's very
games is held by tests/test_native.py and bench/native_check.py."""
from __future__ import annotations

import ast
import textwrap

import pytest

from unorules.native.scratch import batch_arrays
from unorules.native.stacks import as_stacks, lists_as_stacks


def _fn(src: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(src)).body[0]


def test_an_array_no_other_name_sees_is_made_once_per_batch_and_filled_in_place():
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            hm = n_full(N, 0)
            pile = n_stack_of(DECK, 108)
            for r in range(3):
                hm = n_full(N, 0)
                hm[r] += len(pile)
            row[0] = hm[0] + n_hand_points(hm)
    """))
    text = ast.unparse(fn)
    assert dict(made) == {"hm": "np.zeros(N, np.int64)", "pile": "np.zeros(108 + 1, np.int64)"}
    assert "n_full" not in text and "n_stack_of" not in text
    assert text.count("hm[:] = 0") == 2                     # filled at each place it was made
    assert "S_" not in text and "hm = " not in text and "pile = " not in text      # and never bound anew:
    assert "n_stack_load(pile, DECK)" in text               # a name bound in a branch counts references
    assert [a.arg for a in fn.args.args][-2:] == ["hm", "pile"]


def test_an_array_another_name_may_see_keeps_its_own_allocation():
    """`old = hm` then a new `hm`: filled in place, `old` would see the new zeros."""
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            hm = n_full(N, 0)
            old = hm
            hm = n_full(N, 0)
            pair = (hm, 1)
            sizes = n_full(count, 0)
            row[0] = old[0]
    """))
    assert made == []
    assert ast.unparse(fn).count("n_full(") == 3


def test_rows_of_a_grid_only_indexed_become_row_numbers():
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            hc = n_full2((N, NFACES), 0)
            hand = hc[p]
            hand[c] -= 1
            if not hand[c]:
                row[0] = 1
            for h in hc:
                h[:] = 0
            row[1] = n_hand_points(hc[q])
    """))
    text = ast.unparse(fn)
    assert ("hc", "np.zeros((N, NFACES), np.int64)") in made
    assert "hand = p" in text and "hc[hand, c] -= 1" in text and "if not hc[hand, c]" in text
    assert "for h in range(hc.shape[0])" in text and "hc[h, :] = 0" in text


def test_a_grid_whose_row_a_name_holds_as_a_view_stays_made_per_game():
    """`given = hc[q]` handed on: filled in place, the grid would change under `given`."""
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            hc = n_full2((N, NFACES), 0)
            hand = hc[p]
            hand[c] -= 1
            given = hc[q]
            hc = n_full2((N, NFACES), 0)
            row[1] = n_hand_points(given)
    """))
    text = ast.unparse(fn)
    assert made == [] and text.count("n_full2(") == 2
    assert "hand = hc[p]" in text and "given = hc[q]" in text


def test_the_game_s_one_random_stream_is_reseeded_not_made():
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            t1_ = n_rng(seed)
            rnd = t1_
            arnd = t1_
            row[0] = int(n_rand(rnd) * 4) + int(n_rand(arnd) * 2)
            other = n_full(2, 0)
            pair = other
    """))
    assert ("S_rng", "np.zeros(1, np.uint64)") in made
    text = ast.unparse(fn)                          # the names that held it read the batch's word itself
    assert "n_reseed(S_rng, seed)" in text and "int(n_rand(S_rng) * 4) + int(n_rand(S_rng) * 2)" in text
    assert "t1_" not in text and "rnd" not in text and "pair = other" in text
    fn, made = batch_arrays(_fn("""
        def play_game(seed, AG, row, rounds):
            for g in range(2):
                t1_ = n_rng(seed + g)
    """))
    assert made == []                               # made in a loop: each its own stream


def test_stack_helpers_on_the_hot_path_are_handed_lengths_not_arrays():
    """A call that may raise and is handed an array costs numba two atomic reference counts."""
    (fn,) = as_stacks([_fn("""
        def play_game(seed, AG, row, rounds):
            pile = list(DECK)
            discard = [0][:0]
            c = pile[jx]
            pile[jx] = pile[-1]
            pile.pop()
            discard.append(c)
            row[0] = discard[-1]
    """)], 108)
    text = ast.unparse(fn)
    assert "c = pile[n_cell(pile[0], jx)]" in text
    assert "pile[n_cell(pile[0], jx)] = pile[n_cell(pile[0], -1)]" in text
    assert "pile[0] = n_popped(pile[0])" in text
    assert "discard[n_pushed(discard[0], len(discard))] = c\n    discard[0] += 1" in text
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and n.func.id in ("n_cell", "n_popped", "n_pushed")]
    assert calls and all(not (isinstance(a, ast.Name) and a.id in ("pile", "discard")) for c in calls for a in c.args)


def test_a_list_of_numbers_made_empty_or_copied_is_a_stack_and_one_used_otherwise_stays_a_list():
    """A catch window's lists (official, nonpartisan): made empty, copied, tested for a seat, a
    seat appended, removed or popped, read at 0, looped over. A numba list allocates each time it
    is made and counts references at each use; the stacks are made once per batch."""
    fn = lists_as_stacks(_fn("""
        def play_game(seed, AG, row, rounds):
            exposed = [0][:0]
            cands = [0][:0]
            if p in exposed:
                exposed.remove(p)
            exposed.append(p)
            if exposed:
                pending = list(exposed)
                while pending:
                    x = pending[0]
                    if x not in exposed:
                        pending.pop(0)
                    row[0] = pending.pop(0) + len(exposed)
            for q in exposed:
                row[1] += q
            shown = [0][:0]
            shown.append(3)
            shuffle(shown, rnd)
            grows = [0][:0]
            for q in grows:
                grows.append(q)
            cands.append(len(cands))
            exposed = [0][:0]
    """), 24)
    text = ast.unparse(fn)
    for lowered in ("exposed = n_stack_new(24)", "if n_stack_has(exposed, p):", "n_stack_remove(exposed, p)",
                    "exposed[n_pushed(exposed[0], len(exposed))] = p", "if exposed[0] > 0:",
                    "pending = n_stack_new(24)\n        n_stack_copy(pending, exposed)", "while pending[0] > 0:",
                    "x = pending[n_cell(pending[0], 0)]", "if not n_stack_has(exposed, x):",
                    "n_stack_pop_at(pending, 0)", "row[0] = n_stack_pop_at(pending, 0) + exposed[0]",
                    "for i_exposed_ in range(exposed[0]):\n        q = exposed[i_exposed_ + 1]",
                    "cands[n_pushed(cands[0], len(cands))] = cands[0]"):
        assert lowered in text, lowered
    assert "shown = [0][:0]" in text and "shuffle(shown, rnd)" in text          # handed to a function
    assert "grows = [0][:0]" in text and "for q in grows:" in text                # grows as it is looped over


class _Signed(ast.NodeTransformer):
    """np.uint64(x) -> x: the indexes as the passes before indexes.py left them."""
    def visit_Call(self, node):
        from unorules.native.indexes import is_unsigned
        self.generic_visit(node)
        return node.args[0] if is_unsigned(node) else node


def _lowered(rulebook: str, plain: bool = True):
    """The functions of a rulebook's native module; `plain`: with its indexes as the passes the
    tests below are about wrote them (before indexes.py wraps them in np.uint64)."""
    from unorules.codegen.generated import Program
    from unorules.native.rng import SplitMix
    from unorules.native.source import module_source
    from unorules.runs.simulation import RunSpec, make_game
    spec = RunSpec(rulebook, players=4, seed=1, agents=("random",), rounds="single")
    program = Program(make_game(spec), ("random",) * 4, "counted", rng=SplitMix)
    tree = ast.parse(module_source(program, 4))
    if plain:
        tree = _Signed().visit(tree)
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}


def test_rlcard_s_native_game_makes_no_array_or_list_of_its_own():
    """Every array of rlcard's game is made once per batch: no allocator, no list, no row view in
    play_game; the rounds go straight to the batch's array and the one-element `gained` list is
    unrolled."""
    fns = _lowered("rlcard")
    game = fns["play_game"]
    text = ast.unparse(game)
    calls = {n.func.id for n in ast.walk(game) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"n_full", "n_full2", "n_stack_of", "n_stack_new", "n_rng"}
    assert not [n for n in ast.walk(game) if isinstance(n, (ast.List, ast.ListComp))]
    assert "turns_per_round" not in text and "rounds[b_at + rounds_n_, 0] = turns" in text
    assert "gained" not in text.replace("gained_0_", "")
    assert "n_hand_points_of(hc, " in text and "n_hand_points(" not in text       # a hand's points: no row view
    made = [ast.unparse(st) for st in game.body[:-2]]      # before the games' loop: once per batch
    assert "hc = np.zeros((N, NFACES), np.int64)" in made and "S_rng = np.zeros(1, np.uint64)" in made
    assert not {"hc", "S_rng"} & {a.arg for a in game.args.args}      # made here: shapes LLVM knows
    assert "play_game(seeds, AG, ag, out, rounds, starts, at, now)" in ast.unparse(fns["play_batch"])


def test_play_game_is_the_batch_s_loop_called_once_and_picks_are_n_below():
    """play_batch calls play_game once, outside any loop: the games' loop is play_game's own, so its
    arrays are counted once a batch, not once a game; its row and rounds are the batch's arrays
    indexed (no view); every `int(n_rand(s) * n)` is n_below(s, n) (batch.py, scratch.py)."""
    fns = _lowered("rlcard")
    batch, game = fns["play_batch"], fns["play_game"]
    calls = [n for n in ast.walk(batch) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "play_game"]
    assert len(calls) == 1 and not [n for n in ast.walk(batch) if isinstance(n, (ast.For, ast.While))]
    assert [a.arg for a in game.args.args][:8] == ["b_seeds", "b_codes", "AG", "b_out", "rounds", "b_starts",
                                                   "b_at", "b_now"]
    loop, ret = game.body[-2:]                  # after the arrays it makes once per batch
    assert isinstance(loop, ast.For) and ast.unparse(loop.iter) == "range(b_seeds.shape[0])"
    assert all(isinstance(st, ast.Assign) for st in game.body[:-2])
    text = ast.unparse(game)
    assert "row" not in {n.id for n in ast.walk(game) if isinstance(n, ast.Name)}
    assert "b_out[b_g, 0] = outcome" in text and "b_now[1] = b_at" in text
    assert "return (b_g, b_at)" in text and "b_at += rounds_n_" in text
    assert "n_rand" not in text and text.count("n_below(") >= 4


def test_rlcard_s_turn_knows_whether_it_draws_before_its_pick_and_picks_a_play_by_its_bit():
    """Where a seat draws only when stuck, the turn branches on `total` (known before the stream's
    pick: turns.py), and the walk to the picked play starts with n_nth_bit (loops.py). Both are
    rewrites of code the generator writes: should its text change, this says that they no longer fire."""
    game = _lowered("rlcard")["play_game"]
    text = ast.unparse(game)
    assert "if not total:" in text and "if i >= total:" not in text
    picks = [n for n in ast.walk(game) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "n_nth_bit"]
    assert len(picks) == 1


def test_every_index_computed_at_run_time_is_read_unsigned_and_numbers_keep_their_meaning():
    """indexes.py, the last pass: an index that is not a number written in the code is wrapped in
    np.uint64 (numba writes no wrap of a negative index for it, and its bounds check raises on
    one), in reads and in stores, each index of a tuple on its own; numbers (-1: the end), slices
    and indexes already unsigned are kept."""
    from unorules.native.indexes import indexes_unsigned
    fn = _fn("""
        def f(a, g, t, i, j):
            a[i] += 1
            g[i + 1, j] = a[-1] + a[0] + t[CKIND[i]]
            g[:] = 0
            g[i, :] = 0
            return a[np.uint64(j)]
    """)
    text = ast.unparse(indexes_unsigned(fn))
    assert "a[np.uint64(i)] += 1" in text
    assert "g[np.uint64(i + 1), np.uint64(j)] = a[-1] + a[0] + t[np.uint64(CKIND[np.uint64(i)])]" in text
    assert "g[:] = 0" in text and "g[np.uint64(i), :] = 0" in text
    assert "return a[np.uint64(j)]" in text and "np.uint64(np.uint64(" not in text


def test_rlcard_s_native_game_reads_every_computed_index_unsigned():
    """In rlcard's whole native module, the legal set's row by the colour included, no index
    computed at run time is left signed (source.py runs indexes.py last, after every pass that
    makes subscripts)."""
    from unorules.native.indexes import is_number, is_unsigned
    fns = _lowered("rlcard", plain=False)
    computed = []
    for fn in fns.values():
        for node in ast.walk(fn):
            if isinstance(node, ast.Subscript):
                elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                computed += [e for e in elts if not isinstance(e, ast.Slice) and not is_number(e)]
    assert len(computed) > 50
    signed = [ast.unparse(e) for e in computed if not is_unsigned(e)]
    assert not signed, signed
    text = ast.unparse(fns["play_game"])
    assert "FACES_TO[np.uint64(color + 1), np.uint64(CKIND[np.uint64(n_top(discard_top_))])]" in text


def test_the_batch_s_names_are_fresh_and_a_game_of_another_shape_is_not_native():
    from unorules.native.batch import games_loop
    from unorules.native.tables import NotNative
    fn = _fn("""
        def play_game(seed, AG, row, rounds, hc):
            b_g = seed + 1
            if b_g > rounds.shape[0]:
                return -1
            rounds[0, 0] = b_g
            row[0] = b_g
            return 1
    """)
    text = ast.unparse(games_loop(fn))
    assert "for b_g_ in range(b_seeds.shape[0])" in text and "b_g = seed + 1" in text
    assert "b_out[b_g_, 0] = b_g" in text and "rounds[b_at + 0, 0] = b_g" in text
    assert "if b_g > rounds.shape[0] - b_at:\n            return (b_g_, b_at)" in text
    for body in ("h = row\n    return 1", "x = rounds[1:]\n    return 1", "if seed:\n        return 2\n    return 1",
                 "row[0] = 1"):
        with pytest.raises(NotNative):
            games_loop(_fn(f"def play_game(seed, AG, row, rounds):\n    {body}\n"))


def test_a_list_loop_that_breaks_is_not_unrolled():
    from unorules.native.lower import _breaks
    loop = _fn("""
        def f():
            for q, g in gained:
                if g:
                    break
    """).body[0]
    assert _breaks(loop.body)
    inner = _fn("""
        def f():
            for q, g in gained:
                for x in other:
                    break
    """).body[0]
    assert not _breaks(inner.body)


def test_the_seeds_of_a_native_batch_are_the_seeds_of_its_games():
    """Native runs take a chunk's seeds as one array: the very seeds game_seed gives each game,
    for large, negative and zero run seeds and indexes past 2**32."""
    import pytest
    pytest.importorskip("numpy")
    from unorules.runs.simulation import game_seed, game_seeds
    for run_seed in (0, 1, 7, -3, 2 ** 40 + 5, -(2 ** 62)):
        for start, stop in ((0, 50), (10 ** 6, 10 ** 6 + 20), (2 ** 33, 2 ** 33 + 5)):
            assert game_seeds(run_seed, start, stop).tolist() == [game_seed(run_seed, i) for i in range(start, stop)]


def test_a_run_s_batches_take_their_seeds_in_one_array_and_they_are_the_games_seeds():
    """run_range's native batches: SeedBatches writes each batch's seeds into one array, in
    place; a batch (the last one, shorter) gives the seeds game_seed gives, whatever batch came
    before it, and a batch larger than the array is refused, not written past."""
    import pytest
    pytest.importorskip("numpy")
    from unorules.runs.simulation import SeedBatches, game_seed
    for run_seed in (0, 7, -3, 2 ** 40 + 5, -(2 ** 62)):
        batches = SeedBatches(run_seed, 50)
        for start, stop in ((0, 50), (50, 100), (2 ** 33, 2 ** 33 + 7), (10 ** 6, 10 ** 6), (3, 53)):
            seeds = batches.of(start, stop)
            assert seeds.dtype.name == "int64"
            assert seeds.tolist() == [game_seed(run_seed, i) for i in range(start, stop)]
        with pytest.raises(ValueError):
            batches.of(0, 51)


# ---- masks of more than 64 faces, in two words (wide.py) ---------------------------------------
WIDE_TABLES = {"BIT": [1 << f for f in range(80)], "ALL": (1 << 80) - 1, "SMALL": [1, 2, 4]}


def _widened(src: str) -> str:
    from unorules.native.wide import widen_masks
    return ast.unparse(widen_masks(_fn(src), WIDE_TABLES, 80))


def test_a_mask_of_more_than_64_faces_is_two_words_in_every_operation():
    text = _widened("""
        def play_game(seed, AG, row, rounds):
            hm = n_full(N, 0)
            hm[n_seat(seed)] |= BIT[70]
            hm[seed % N] |= BIT[1]
            m = hm[0] & ALL
            low = m & -m
            c = n_bitlen(low) - 1
            k = n_popcount(m ^ SMALL[1])
            while m:
                m ^= low
            legal = BIT[c] if c > 3 else 0
            none_left = (m & ALL) == 0
            row[0] = c + k
    """)
    assert "hm = n_full2((N, 2), 0)" in text                     # the array: a last dimension of 2
    assert "wide_index1_ = n_seat(seed)" in text                 # a call evaluated once for both words
    assert "hm[wide_index1_, 0] = wide_cell2_[0]" in text and "hm[wide_index1_, 1] = wide_cell2_[1]" in text
    assert "n_wor((hm[seed % N, 0], hm[seed % N, 1]), (BIT[1, 0], BIT[1, 1]))" in text
    assert "m = n_wand((hm[0, 0], hm[0, 1]), ALL)" in text        # a scalar table is a pair constant
    assert "low = n_wand(m, n_wneg(m))" in text and "c = n_wbitlen(low) - 1" in text
    assert "k = n_wpopcount(n_wxor(m, n_wof(SMALL[1])))" in text   # a one-word table widened with its sign
    assert "while n_wnz(m):" in text and "m = n_wxor(m, low)" in text
    assert "legal = (BIT[c, 0], BIT[c, 1]) if c > 3 else (0, 0)" in text
    assert "none_left = not n_wnz(n_wand(m, ALL))" in text
    assert "row[0] = c + k" in text


def test_a_deck_of_64_faces_or_fewer_keeps_one_word():
    from unorules.native.wide import widen_masks
    src = "def play_game(seed):\n    m = BIT[3] & -BIT[3]\n"
    assert ast.unparse(widen_masks(_fn(src), WIDE_TABLES, 64)) == ast.unparse(_fn(src))


def test_what_the_two_word_pass_does_not_translate_is_refused_with_its_reason():
    import pytest
    from unorules.native.tables import NotNative
    for body, reason in (("x = BIT[3] + 1", "arithmetic"), ("x = BIT[3] < BIT[4]", "compared by size"),
                         ("x = f(BIT[3])", "handed to `f`"), ("x = BIT[3] or BIT[4]", "and/or"),
                         ("x = SMALL[BIT[3]]", "used as a number")):
        with pytest.raises(NotNative, match=reason):
            _widened(f"def play_game(seed):\n    {body}\n")
    from unorules.native.wide import widen_masks
    with pytest.raises(NotNative, match="more than 128 faces"):
        widen_masks(_fn("def play_game(seed):\n    pass\n"), WIDE_TABLES, 132)


def test_two_words_hold_every_mask_of_128_faces_and_its_sign():
    import random
    from unorules.native.tables import emit, split_word, two_words
    rng = random.Random(7)
    for v in [0, 1, -1, 1 << 63, (1 << 64) - 1, 1 << 64, (1 << 128) - 1, -(1 << 127)] + \
             [rng.randrange(-(1 << 127), 1 << 128) for _ in range(500)]:
        lo, hi = split_word(v)
        assert all(-(1 << 63) <= w < 1 << 63 for w in (lo, hi))
        assert ((hi << 64) + (lo & ((1 << 64) - 1))) % (1 << 128) == v % (1 << 128)
    assert two_words([1, 2, [3]]) is None and two_words(SMALL := [1 << 62]) is None and SMALL
    assert two_words([[1 << 70, 1], [0, 0]]) == 2 and two_words(1 << 64) == 0
    assert emit("T", [1 << 64, 3], words=2) == "T = np.array([0, 1, 3, 0], dtype=np.int64).reshape((2, 2))"
    assert emit("A", 1 << 64, words=2) == "A = (0, 1)"


def test_hot_death_s_native_module_holds_its_masks_in_two_words():
    """hot_death has 66 faces: its hands' masks, the legal faces and their tables are pairs."""
    import re
    import unorules
    from unorules.codegen.generated import Program
    from unorules.native.rng import SplitMix
    from unorules.native.source import module_source
    game = unorules.Game("hot_death", players=4)
    src = module_source(Program(game, ("greedy",) * 4, "counted", rng=SplitMix), 4)
    assert "    hm = np.zeros((N, 2), np.int64)" in src
    reads = re.findall(r"\bhm\[([^\]]*)\]", src)
    assert reads and all(r.endswith((", 0", ", 1")) or r == ":" for r in reads)      # a word of a cell, always
    assert "n_wneg(" in src and "n_wbitlen(" in src and "n_bitlen(low)" not in src
    assert re.search(r"^BIT = np\.array\(.*\.reshape\(\(66, 2\)\)$", src, re.M)


def _faces(m):
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


FACES_LOOPS = """
    def walk(hm, seat, stop):
        seen = []
        c = -1
        for c in {call}:
            if c % 3 == 1:
                continue
            hm[seat] = 0                     # the hand changes under the loop: the faces it held are walked
            seen.append(c)
            for d in {call}:                 # nested, the same helper: a loop of its own
                seen.append(-d)
            if c >= stop:
                break
        return seen, c
"""


@pytest.mark.parametrize("call, words", [("n_faces_in(hm[seat])", 1), ("n_wfaces_in((hm[seat], hm[seat + 1]))", 2)])
def test_a_loop_over_a_mask_s_faces_walks_its_bits_as_the_list_did(call, words):
    """loops.faces_as_bit_loops: no list made, the same faces in the same order, `continue`,
    `break`, a nested walk, a hand changed under the loop, and the loop's name after it."""
    import random
    from unorules.native.loops import faces_as_bit_loops
    src = textwrap.dedent(FACES_LOOPS.format(call=call))
    walked = faces_as_bit_loops(ast.parse(src).body[0])
    text = ast.unparse(walked)
    assert "n_faces_in" not in text and "n_wfaces_in" not in text
    helpers = {"n_faces_in": _faces, "n_bitlen": lambda m: m.bit_length(),
               "n_wfaces_in": lambda a: _faces(a[0]) + [64 + f for f in _faces(a[1])]}
    before, after = dict(helpers), dict(helpers)
    exec(compile(src, "<before>", "exec"), before)
    exec(compile(ast.Module(body=[walked], type_ignores=[]), "<after>", "exec"), after)
    rng = random.Random(7)
    for _ in range(300):
        hands = [rng.getrandbits(rng.choice([0, 3, 20, 63])) for _ in range(3)]
        stop = rng.randrange(140)
        assert after["walk"](list(hands), 0, stop) == before["walk"](list(hands), 0, stop)


def test_a_faces_loop_with_an_else_keeps_its_list_and_made_names_are_fresh():
    from unorules.native.loops import faces_as_bit_loops
    text = ast.unparse(faces_as_bit_loops(_fn("""
        def f(m, fm1_, fl1_):
            for c in n_faces_in(m):
                pass
            else:
                c = -1
            for c in n_faces_in(m + fm1_ + fl1_):
                pass
            return c
    """)))
    assert text.count("n_faces_in(") == 1 and "else:" in text      # the loop with an else keeps its list
    assert "fm1__ = m + fm1_ + fl1_" in text and "fl1__ = fm1__ & -fm1__" in text


class _Rows:
    """A stand-in for the int64 array of a stack of rows (x[r, k], len(x): its rows)."""
    def __init__(self, rows, width):
        self.cells = [[0] * width for _ in range(rows)]

    def __getitem__(self, rk):
        return self.cells[rk[0]][rk[1]]

    def __setitem__(self, rk, v):
        self.cells[rk[0]][rk[1]] = int(v)

    def __len__(self):
        return len(self.cells)


def _n_cell(n, i):
    i = i + n if i < 0 else i
    if not 0 <= i < n:
        raise IndexError()
    return i + 1


def _n_pushed(n, cells):
    if n + 1 >= cells:
        raise IndexError()
    return n + 1


def _n_rows_sort(s):
    n = s[0, 0]
    rows = sorted(tuple(s.cells[r]) for r in range(1, n + 1))
    for r, row in enumerate(rows, 1):
        s.cells[r] = list(row)


OPTIONS = """
    def options(hand, calls, pick):
        opts = []
        for c in hand:
            if c % 2:
                opts.append((c, False, c * 3))
                if calls:
                    opts.append((c, True, -c))
        if not opts:
            return -1, len(opts)
        n_sort(opts)
        m = 0
        for i in range(len(opts)):
            if opts[i][1]:
                m = i
                break
        card, call, given = opts[pick % len(opts)]
        if opts and len(opts) > 2:
            given += opts[-1][0]
        return card * 10 + call + given * 1000 + m, len(opts)
"""


def test_a_list_of_tuples_is_a_stack_of_rows_that_answers_as_the_list_did():
    """rows.rows_as_stacks: append, its length, its truth, an item of a tuple (from the top too),
    a tuple unpacked and the list sorted (n_rows_sort: Python's order), against the list itself."""
    import random
    from unorules.native.rows import rows_as_stacks
    src = textwrap.dedent(OPTIONS)
    lowered = rows_as_stacks(ast.parse(src).body[0], 20)
    text = ast.unparse(lowered)
    assert "opts = n_rows_new(20, 3)" in text and ".append" not in text and "opts[n_cell(opts[0, 0], -1), 0]" in text
    before = {"n_sort": lambda xs: xs.sort()}
    after = {"n_rows_new": lambda n, w: _Rows(n + 1, w), "n_cell": _n_cell, "n_pushed": _n_pushed,
             "n_rows_sort": _n_rows_sort}
    exec(compile(src, "<before>", "exec"), before)
    exec(compile(ast.Module(body=[lowered], type_ignores=[]), "<after>", "exec"), after)
    rng = random.Random(3)
    for _ in range(300):
        hand = [rng.randrange(-9, 20) for _ in range(rng.randrange(0, 9))]
        args = (hand, rng.random() < 0.5, rng.randrange(50))
        assert after["options"](*args) == before["options"](*args)
    with pytest.raises(IndexError):                  # more tuples than rows: raised, and the reference plays the game
        after["options"](list(range(1, 40, 2)), True, 0)


@pytest.mark.parametrize("use", ["return opts", "for t in opts:\n                pass", "opts.append(3)",
                                 "opts.append((1, 2, 3))", "x = opts[0]", "opts = [(1, 2)]"])
def test_a_list_of_tuples_used_otherwise_stays_a_list(use):
    from unorules.native.rows import rows_as_stacks
    fn = _fn(f"""
        def f():
            opts = []
            opts.append((1, 2))
            {use}
    """)
    assert ast.unparse(rows_as_stacks(fn, 8)) == ast.unparse(fn)


PICK = """
    def pick(legal, i):
        while True:
            low = legal & -legal
            card = n_bitlen(low) - 1
            m = {table}[card]
            if i < m:
                break
            i -= m
            legal ^= low
        return low, card, m, i, legal
"""


def _nth_bit(m, i):
    for _ in range(i):
        m &= m - 1
    return m & -m


@pytest.mark.parametrize("counts", [
    [1] * 52 + [4, 4],                       # rlcard: 52 faces of one play action, then the wilds
    [1, 1, 1, 0, 1, 2, 1, 4, 1, 1],          # a face with none, then faces of one and of more mixed
    [1] * 64,                                # 64 faces: the lead's mask has bit 63 (a negative word)
    [1] * 63 + [2],
])
def test_a_walk_to_a_play_action_picks_a_lead_face_at_once_and_leaves_every_name_as_the_walk_did(counts):
    """loops.option_walks_as_picks: the play action of index i, among the faces of `legal` each
    with its count of actions, is found by one n_nth_bit where it falls among the lead faces (of
    one action each, below the first face with another count); every name ends as the walk left it."""
    import random
    from unorules.native.loops import option_walks_as_picks
    src = textwrap.dedent(PICK.format(table="NOPT"))
    text = ast.unparse(option_walks_as_picks(ast.parse(src).body[0], {"NOPT": counts}))
    assert "n_nth_bit(" in text and text.count("while True:") == 1       # the walk stays for the rest
    signed = lambda v: v - (1 << 64) if v >> 63 else v                   # noqa: E731  machine words
    helpers = {"NOPT": counts, "n_bitlen": lambda m: (m & ((1 << 64) - 1)).bit_length(),
               "n_popcount": lambda m: bin(m & ((1 << 64) - 1)).count("1"),
               "n_nth_bit": lambda m, i: signed(_nth_bit(m & ((1 << 64) - 1), i))}
    before, after = dict(helpers), dict(helpers)
    exec(compile(src, "<before>", "exec"), before)
    exec(compile(text, "<after>", "exec"), after)
    rng = random.Random(len(counts))
    for _ in range(500):
        legal = signed(rng.getrandbits(len(counts)) | 1 << rng.randrange(len(counts)))
        actions = sum(counts[f] for f in range(len(counts)) if legal >> f & 1)
        for i in range(actions):
            got, want = after["pick"](legal, i), before["pick"](legal, i)
            assert [v & ((1 << 64) - 1) for v in got] == [v & ((1 << 64) - 1) for v in want]


@pytest.mark.parametrize("table, tables", [
    ("NO", {"NOPT": [1] * 10}),              # a table chosen as the game runs (the call's): not the program's
    ("NOPT", {"NOPT": [4] + [1] * 9}),       # no lead face: the first face has four actions
    ("NOPT", {"NOPT": [1] * 65}),            # more than one word
])
def test_a_walk_the_pick_cannot_shorten_is_left_as_it_is(table, tables):
    from unorules.native.loops import option_walks_as_picks
    src = textwrap.dedent(PICK.format(table=table))
    assert ast.unparse(option_walks_as_picks(ast.parse(src).body[0], tables)) == ast.unparse(ast.parse(src).body[0])


# ---- a pile's top card in a local (tops.py) ------------------------------------------------------
RESHUFFLE = """
    def reshuffle(pile, discard, rnd):
        if discard[0] <= 1:
            return False
        t = n_stack_pop(discard)
        n_stack_prepend(pile, discard)
        n_stack_set1(discard, t)
        return True
"""


def test_a_function_keeps_a_pile_s_top_only_where_it_puts_the_popped_card_back_before_returning():
    from unorules.native.tops import keeps_top
    assert keeps_top(_fn(RESHUFFLE), 1)
    assert keeps_top(_fn("def f(pile, discard):\n    return pile[0] + discard[0]"), 1)       # only read
    refused = [
        RESHUFFLE.replace("n_stack_set1(discard, t)", "n_stack_set1(discard, 0)"),         # another card
        RESHUFFLE.replace("n_stack_prepend(pile, discard)", "t = 3"),                        # the name bound again
        RESHUFFLE.replace("n_stack_prepend(pile, discard)", "return False"),                 # left without it
        RESHUFFLE.replace("n_stack_prepend(pile, discard)", "helper(discard)"),              # a call of unknown effect
        RESHUFFLE.replace("t = n_stack_pop(discard)", "t = n_stack_pop(discard)\n        n_stack_set1(discard, t)\n"
                          "        discard[1] = 5"),                                             # changed after
        RESHUFFLE.replace("if discard[0] <= 1:", "if n_stack_pop(discard) <= 1:"),
        RESHUFFLE.replace("        return False", "        return discard"),
    ]
    for src in refused:
        assert not keeps_top(_fn(src), 1), src
    assert not keeps_top(_fn(RESHUFFLE), 5)                # no such parameter


def test_a_pile_s_top_card_is_kept_in_a_local_written_after_every_change():
    from unorules.native.tops import tops_in_locals
    top = "discard[n_cell(discard[0], -1)]"
    fn = tops_in_locals(_fn(f"""
        def play_game(seeds, out):
            discard = np.zeros(109, np.int64)
            for g in range(3):
                discard[0] = 0
                discard[n_pushed(discard[0], len(discard))] = card
                discard[0] += 1
                x = CKIND[{top}]
                if pile[0] == 0 and reshuffle(pile, discard, rnd):
                    y = {top}
                if pile[0] == 0 and shuffle_in(pile, discard):
                    y = 1
                c = n_stack_pop(discard) + {top}
                while n_stack_pop(discard) > {top}:
                    z = {top}
                out[g] = {top}
    """), [_fn(RESHUFFLE), _fn("def shuffle_in(pile, discard):\n    discard[0] = 0\n    return True")])
    text = ast.unparse(fn)
    again = "discard_top_ = discard[discard[0]] if 0 < discard[0] < len(discard) else -1"
    lines = [line.strip() for line in text.splitlines()]
    assert lines[1] == "discard_top_ = -1"
    assert lines[lines.index("discard[0] = 0") + 1] == again                        # a reset: read again
    assert lines[lines.index("discard[0] += 1") + 1] == "discard_top_ = card"         # a push: the card pushed
    assert "x = CKIND[n_top(discard_top_)]" in lines and "y = n_top(discard_top_)" in lines
    i = lines.index("if pile[0] == 0 and reshuffle(pile, discard, rnd):")
    assert lines[i + 1] == "y = n_top(discard_top_)"                                   # it keeps the top
    i = lines.index("if pile[0] == 0 and shuffle_in(pile, discard):")
    assert lines[i + 1] == again and lines[i + 3] == "else:" and lines[i + 4] == again  # it may not: both ways
    assert f"c = n_stack_pop(discard) + {top}" in lines                                 # changed in the statement
    assert lines[lines.index(f"c = n_stack_pop(discard) + {top}") + 1] == again
    i = lines.index(f"while n_stack_pop(discard) > {top}:")
    assert lines[i + 1] == again and lines[i + 2] == "z = n_top(discard_top_)" and lines[i + 3] == again
    assert lines[-1] == "out[g] = n_top(discard_top_)"


def test_a_pile_bound_to_another_name_keeps_its_reads():
    from unorules.native.tops import tops_in_locals
    src = """
        def play_game(seeds, out):
            discard = np.zeros(109, np.int64)
            other = discard
            out[0] = discard[n_cell(discard[0], -1)]
    """
    assert ast.unparse(tops_in_locals(_fn(src), [])) == ast.unparse(_fn(src))
    handed = src.replace("other = discard", "other = give_back(discard)")
    assert "n_top" not in ast.unparse(tops_in_locals(_fn(handed), [_fn("def give_back(s):\n    return s")]))


def test_a_pile_whose_top_is_read_only_where_it_changes_gets_no_local():
    """The draw pile's swap-remove reads its top in the statement that changes it: a local for it
    would be written after every change and never read."""
    from unorules.native.tops import tops_in_locals
    src = """
        def play_game(seeds, out):
            pile = np.zeros(109, np.int64)
            discard = np.zeros(109, np.int64)
            for g in range(3):
                jx = n_below(rnd, pile[0])
                f = pile[n_cell(pile[0], jx)]
                pile[n_cell(pile[0], jx)] = pile[n_cell(pile[0], -1)]
                pile[0] = n_popped(pile[0])
                discard[n_pushed(discard[0], len(discard))] = f
                discard[0] += 1
                out[g] = discard[n_cell(discard[0], -1)]
    """
    text = ast.unparse(tops_in_locals(_fn(src), []))
    assert "pile_top_" not in text
    assert "pile[n_cell(pile[0], jx)] = pile[n_cell(pile[0], -1)]" in text
    assert "out[g] = n_top(discard_top_)" in text and "discard_top_ = f" in text


_EFFECTS = """
    def f(k, p, direction, override, start):
        skips = np.zeros(N, np.int64)
        for q in range(N):
            skips[q] = start[q]
        first = p
        if HAS[k]:
            if k == 10:
                t = (p + direction) % N
                if t != NONE:
                    skips[t] = 1
            elif k == 11:
                direction = -direction
                override = first
                if N == 4:
                    t2 = (p + direction) % N
                    if t2 != NONE:
                        skips[t2] = 3
            elif k == 12:
                skips[0] = len(start)
            elif k == 13:
                skips[p] = 2
            elif k == 9:
                direction = 5
            elif k == 8:
                if direction > 0:
                    direction = direction - 1
        return direction, override, [int(x) for x in skips]
"""
_HAS = [0] * 8 + [1, 0, 1, 1, 1, 1]


def test_a_kind_s_simple_effects_are_selects_that_play_every_kind_as_the_chain_did():
    """predicate.py: in `if HAS[k]: if k == 10: ... elif k == 11: ...`, a case of assignments and
    `if`s whose expressions cannot raise, writing a seat array at `e % N` and names defined on
    every path, is done on every play as selects (`x = e if k == K else x`), and the guard reads
    a copy of its table without those kinds. A call, an index not proven in range, a test whose
    names its body changes, and a kind whose table entry is 0 stay in the chain. Both functions,
    run as Python over every kind and state, return the same."""
    import copy
    import itertools
    import types
    from unorules.native.predicate import effects_without_branches
    np = types.SimpleNamespace(zeros=lambda n, dtype: [0] * n, int64=int)     # numpy need not be installed
    before = _fn(_EFFECTS)
    after, made = effects_without_branches(copy.deepcopy(before), {"HAS": _HAS})
    text = ast.unparse(after)
    assert made == {"HAS_LEFT": [0] * 8 + [1, 0, 0, 0, 1, 1]}
    assert "t = (p + direction) % N\n    skips[t] = 1 if k == 10 and t != NONE else skips[t]" in text
    assert "direction = -direction if k == 11 else direction" in text
    assert "override = first if k == 11 else override" in text
    assert "t2 = (p + direction) % N\n    skips[t2] = 3 if k == 11 and N == 4 and (t2 != NONE) else skips[t2]" in text
    assert "if HAS_LEFT[k]:\n        if k == 12:" in text
    assert "k == 10:" not in text and "k == 11:" not in text
    for kept in ("elif k == 13:", "elif k == 9:", "elif k == 8:", "skips[0] = len(start)", "skips[p] = 2"):
        assert kept in text
    runs = {}
    for name, fn, table in (("before", before, {"HAS": _HAS}), ("after", after, {"HAS_LEFT": made["HAS_LEFT"]})):
        space = {"np": np, "N": 4, "NONE": -(1 << 62), **table}
        exec(compile(ast.Module(body=[fn], type_ignores=[]), "<test>", "exec"), space)
        runs[name] = space["f"]
    cases = 0
    for k, p, direction, override, start in itertools.product(range(14), range(4), (1, -1, 3), (-1, 2), ([0, 0, 0, 0], [0, 2, 1, 0])):
        assert runs["before"](k, p, direction, override, start) == runs["after"](k, p, direction, override, start)
        cases += 1
    assert cases == 14 * 4 * 3 * 2 * 2


@pytest.mark.parametrize("case", [
    "t = u\nu = 1",                                      # reads its own name before binding it
    "if p > 0:\n    t = (p + 1) % N\nskips[t] = 1",      # reads its own name past the `if` that binds it
    "t = (p + 1) % N\nt = (p + 2) % N\nskips[t] = 1",    # binds its own name twice
    "skips[p] = 1",                                                   # an index not proven in range
    "skips[(p + 1) // N] = 1",                                        # // N is not a seat
    "direction = direction // d",                                     # may divide by zero
    "direction = SIDE[p]",                                            # reads an array
    "direction = given",                                              # a name not bound on every path here
    "k = 3",                                                          # changes the kind
    "if direction > 0:\n    direction = direction - 1",                   # a test its own body changes
])
def test_an_effect_that_could_raise_or_read_what_it_has_not_is_left_in_the_chain(case):
    from unorules.native.predicate import effects_without_branches
    fn = _fn(f"""
        def f(k, p, d, direction, override):
            skips = np.zeros(N, np.int64)
            if p > 1:
                given = 1
            if HAS[k]:
                if k == 1:
                    {case.replace(chr(10), chr(10) + " " * 20)}
                elif k == 2:
                    direction = -direction
            return direction, override, skips
    """)
    after, made = effects_without_branches(fn, {"HAS": [0, 1, 1], "SIDE": [1, 2]})
    text = ast.unparse(after)
    assert made == {"HAS_LEFT": [0, 1, 0]} and "if k == 1:" in text and "k == 2" in text.split("if HAS_LEFT")[0]


def test_a_seat_array_bound_twice_or_a_function_that_binds_n_is_left_as_it_is():
    from unorules.native.predicate import effects_without_branches
    chain = """
            if HAS[k]:
                if k == 1:
                    t = (p + 1) % N
                    skips[t] = 1
            return skips"""
    twice = _fn("def f(k, p):\n    skips = np.zeros(N, np.int64)\n    skips = np.zeros(N, np.int64)" + textwrap.dedent(chain).replace("\n", "\n    "))
    _, made = effects_without_branches(twice, {"HAS": [0, 1]})
    assert made == {}
    binds_n = _fn("def f(k, p):\n    N = 3\n    skips = np.zeros(N, np.int64)" + textwrap.dedent(chain).replace("\n", "\n    "))
    _, made = effects_without_branches(binds_n, {"HAS": [0, 1]})
    assert made == {}

