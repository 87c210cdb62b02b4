"""What native code calls (needs numba: the extra `unorules[native]`): the random stream (rng.py's
SplitMix64, to the bit), bit counts through LLVM's intrinsics, and the helpers the counted Python
code has as Python functions (codegen.generated), each computing the same values in the same
order. Generated modules import this one; numba compiles each function into its callers."""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic, overload, register_jitable

from unorules.errors import MAX_VALUE
from .rng import GOLDEN, MIX1, MIX2

NONE = -(1 << 62)              # None, in native code: far outside ±MAX_VALUE, so no rule's value
JIT = dict(cache=True, nogil=True, boundscheck=True)
_GOLDEN, _MIX1, _MIX2 = np.uint64(GOLDEN), np.uint64(MIX1), np.uint64(MIX2)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_UNIT = 1.0 / (1 << 53)
_LOW53, _S53 = np.uint64((1 << 53) - 1), np.uint64(53)
_EXACT = np.uint64((1 << 53) - (1 << 10))     # _pick: below this, no rounding reaches the next integer


class NativeStop(Exception):
    """A rule error or a stall inside native code (its reason is told apart by a flag)."""


if config.DISABLE_JIT:             # NUMBA_DISABLE_JIT=1: the module runs as Python (for debugging it)
    def _ctpop(x):
        return bin(int(x) & ((1 << 64) - 1)).count("1")

    def _ctlz(x):
        return 64 - (int(x) & ((1 << 64) - 1)).bit_length()
else:
    @intrinsic
    def _ctpop(typingctx, x):
        def codegen(context, builder, sig, args):
            return builder.ctpop(args[0])
        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx, x):
        def codegen(context, builder, sig, args):
            return builder.ctlz(args[0], context.get_constant(types.boolean, False))
        return types.int64(types.int64), codegen

    @intrinsic
    def _pdep(typingctx, x, m):
        """BMI2's parallel deposit: the low bits of x, in turn, into the set bits of m."""
        def codegen(context, builder, sig, args):
            word = ir.IntType(64)
            fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(word, [word, word]))
            return builder.call(fn, args)
        return types.int64(types.int64, types.int64), codegen


def _compiles_pdep() -> bool:
    """Whether numba compiles for a CPU with BMI2 (x86-64 since 2013): the host's, or the one
    NUMBA_CPU_NAME names (with NUMBA_CPU_FEATURES), as numba's cache keys its code."""
    if config.DISABLE_JIT:
        return False
    try:
        if config.CPU_NAME:
            return "+bmi2" in (config.CPU_FEATURES or "").split(",")
        import llvmlite.binding as llvm
        return bool(llvm.get_host_cpu_features().get("bmi2"))
    except Exception:                # an llvmlite without the query: the portable loop
        return False


if _compiles_pdep():
    @njit(**JIT)
    def n_nth_bit(m, i):
        """The i-th lowest set bit of m (0 for the first), as a mask of one bit; 0 if m has i or
        fewer. One instruction (pdep), where the walk it replaces was a loop of mispredicted
        branches (perf: rlcard's pick of a play)."""
        return _pdep(np.int64(1) << i, np.int64(m))
else:
    @njit(**JIT)
    def n_nth_bit(m, i):
        """The i-th lowest set bit of m (0 for the first), as a mask of one bit; 0 if m has i or fewer."""
        for _ in range(i):
            m &= m - 1
        return m & -m


@njit(**JIT)
def n_popcount(m):
    """int.bit_count of a mask of up to 64 faces (bit 63 reads as the sign bit, and is counted)."""
    return _ctpop(np.int64(m))


@njit(**JIT)
def n_bitlen(m):
    """int.bit_length of a mask of up to 64 faces (0 for 0; 64 for bit 63)."""
    return 64 - _ctlz(np.int64(m))


@njit(**JIT)
def n_rng(seed):
    """A stream started from `seed` (rng.SplitMix(seed))."""
    s = np.empty(1, np.uint64)
    s[0] = np.uint64(seed)
    return s


@njit(**JIT)
def n_reseed(s, seed):
    """n_rng(seed) in a word made once per batch (scratch.py)."""
    s[0] = np.uint64(seed)
    return s


@njit(**JIT)
def _top53(x):
    """The top 53 bits of the mix of the stream's word x (rng.SplitMix's mix)."""
    z = (x ^ (x >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return z >> _S11


@njit(**JIT)
def _unit(x):
    """The float in [0, 1) of the stream's word x (rng.SplitMix.random: its top 53 bits)."""
    return np.float64(_top53(x)) * _UNIT


@register_jitable
def _float_pick(a, n):
    """int(a / 2**53 * n), as Python's floats compute it, for a below 2**53: a pick of 0..n-1."""
    return np.int64(np.float64(a) * _UNIT * n)


def _pick(a, n):
    """_float_pick's number; compiled, in integers where that is the same number (_pick_typed)."""
    return _float_pick(a, n)


if not config.DISABLE_JIT:
    @overload(_pick, jit_options={"nogil": True})
    def _pick_typed(a, n):
        """For a whole n of 1..2047, the pick in integers: a * n is exact in 64 bits, and the float
        product rounds it to 53 bits, which moves it by at most 2**10 (n < 2**11: a drop of at most
        11 bits, half a step of 2**11 at most, ties to even). So the integer quotient by 2**53 is
        the float's, unless a * n lies that close below a multiple of 2**53 (about once in 2**43
        picks), where the float product is taken. The same number either way, at a third of the
        latency: the float conversions were the slowest chain of a turn (perf)."""
        if isinstance(n, types.Integer):
            def whole(a, n):
                if 0 < n < 2048:
                    p = a * np.uint64(n)
                    if (p & _LOW53) < _EXACT:
                        return np.int64(p >> _S53)
                return _float_pick(a, n)
            return whole
        return lambda a, n: _float_pick(a, n)


@njit(**JIT)
def n_rand(s):
    """The stream's next float in [0, 1) (rng.SplitMix.random)."""
    x = s[0] + _GOLDEN
    s[0] = x
    return _unit(x)


@njit(inline="always", **JIT)
def n_below(s, n):
    """int(n_rand(s) * n), the stream's pick of 0..n-1 (how the generated code draws), computed
    as _pick does. Its word is stepped here and only a number is handed on: a helper that hands
    its array on counts references to it. Inlined by numba itself: LLVM left this one a call at
    rlcard's dozen sites (perf: 8% of its time in the call)."""
    x = s[0] + _GOLDEN
    s[0] = x
    return _pick(_top53(x), n)


@njit(**JIT)
def n_truthy(x):
    """What `if x:` tests of a value that may be None (NONE)."""
    return x != NONE and x != 0


@njit(**JIT)
def n_full(n, k):
    return np.full(n, k, np.int64)


@njit(**JIT)
def n_full2(shape, k):
    return np.full(shape, k, np.int64)


@njit(**JIT)
def n_bounded(v):
    """errors.bounded: a value within ±MAX_VALUE (a number that is not one is a rule error)."""
    if v != v or v < -MAX_VALUE or v > MAX_VALUE:
        raise NativeStop()
    return v


@njit(**JIT)
def n_modulo(a, b):
    return a % b if b else 0


@njit(**JIT)
def n_faces_in(m):
    """generated.faces_in: the faces of a mask, in face order."""
    out = [0][:0]
    while m:
        low = m & -m
        out.append(n_bitlen(low) - 1)
        m ^= low
    return out


@njit(**JIT)
def n_held(h, m):
    """generated.held: a counted hand's faces in face order, each as often as it is held."""
    out = [0][:0]
    while m:
        low = m & -m
        f = n_bitlen(low) - 1
        for _ in range(h[f]):
            out.append(f)
        m ^= low
    return out


@njit(**JIT)
def n_chance_pick(weights, s):
    """generated.chance_pick: the outcome by the weights, one draw of the stream (the same
    additions in the same order, so the same float and the same outcome)."""
    n = len(weights)
    total = 0.0
    for i in range(n):
        w = weights[i]
        if not (0 <= w <= MAX_VALUE):
            raise NativeStop()
        total += w
    if total <= 0:
        raise NativeStop()
    cum = np.empty(n, np.float64)
    acc = 0.0
    for i in range(n):
        acc = weights[i] / total if i == 0 else acc + weights[i] / total
        cum[i] = acc
    x = n_rand(s) * (cum[n - 1] + 0.0)
    lo, hi = 0, n - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if x < cum[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(**JIT)
def n_copy1(x, t):
    """x[:] = t, as a loop (scratch.copies_as_calls)."""
    if len(x) != len(t):
        raise ValueError()
    for i in range(len(t)):
        x[i] = t[i]


@njit(**JIT)
def n_copy_row(x, r, t):
    """x[r, :] = t, as a loop."""
    if x.shape[1] != len(t):
        raise ValueError()
    for i in range(len(t)):
        x[r, i] = t[i]


@njit(**JIT)
def n_sort(xs):
    """xs.sort() for a short list (a hand's options): insertion sort, stable, in place. The same
    order as Python's sort, since both order by `<` and equal items cannot be told apart."""
    for i in range(1, len(xs)):
        x = xs[i]
        j = i - 1
        while j >= 0 and x < xs[j]:
            xs[j + 1] = xs[j]
            j -= 1
        xs[j + 1] = x


# ---- lists of tuples as stacks of rows (rows.py): [0, 0] the length, rows 1.. the tuples ----

@njit(**JIT)
def n_rows_new(capacity, width):
    s = np.empty((capacity + 1, width), np.int64)
    s[0, 0] = 0
    return s


@njit(**JIT)
def _row_less(s, a, b):
    """Row a before row b in Python's order of tuples (the first item that differs decides)."""
    for k in range(s.shape[1]):
        if s[a, k] != s[b, k]:
            return s[a, k] < s[b, k]
    return False


@njit(**JIT)
def n_rows_sort(s):
    """n_sort of a stack of rows: insertion sort of rows 1..n (row 0 holds the length), each row
    swapped down past the rows it sorts before: stable, in place, Python's order of tuples."""
    n = s[0, 0]
    for i in range(2, n + 1):
        j = i
        while j > 1 and _row_less(s, j, j - 1):
            for k in range(s.shape[1]):
                s[j, k], s[j - 1, k] = s[j - 1, k], s[j, k]
            j -= 1


# ---- the piles as stacks (stacks.py): cell 0 the length, cells 1.. the cards, bottom first ----

@njit(**JIT)
def n_stack_new(capacity):
    s = np.empty(capacity + 1, np.int64)
    s[0] = 0
    return s


@njit(**JIT)
def n_stack_of(cards, capacity):
    s = np.empty(capacity + 1, np.int64)
    n = len(cards)
    if n + 1 > len(s):
        raise IndexError()
    s[0] = n
    for i in range(n):               # a loop, not a slice: see n_copy1
        s[i + 1] = cards[i]
    return s


@njit(**JIT)
def n_stack_load(s, cards):
    """s[:] = cards, in a stack made once per batch (scratch.py)."""
    n = len(cards)
    if n + 1 > len(s):
        raise IndexError()
    s[0] = n
    for i in range(n):
        s[i + 1] = cards[i]


@njit(**JIT)
def n_cell(n, i):
    """The cell of item i of a stack of n items (Python's index: from the top when negative), or
    IndexError. It is handed the length, not the stack: see stacks.py."""
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError()
    return i + 1


@njit(**JIT)
def n_pushed(n, cells):
    """A push's new length (and its cell), or IndexError when the stack's cells are full."""
    if n + 1 >= cells:
        raise IndexError()
    return n + 1


@njit(**JIT)
def n_popped(n):
    """A pop's new length, or IndexError on an empty stack."""
    if n == 0:
        raise IndexError()
    return n - 1


@njit(inline="always", **JIT)
def n_top(t):
    """A pile's top card, kept in a local of play_game (tops.py): -1 for an empty pile, whose read
    raises IndexError as the read of the pile itself does (n_cell)."""
    if t < 0:
        raise IndexError()
    return t


@njit(**JIT)
def n_stack_pop(s):
    n = s[0]
    if n == 0:
        raise IndexError()
    s[0] = n - 1
    return s[n]


@njit(**JIT)
def n_stack_has(s, x):
    """x in s."""
    for i in range(1, s[0] + 1):
        if s[i] == x:
            return True
    return False


@njit(**JIT)
def n_stack_remove(s, x):
    """s.remove(x): its first x goes, the items above move down; ValueError when x is not there."""
    n = s[0]
    for i in range(1, n + 1):
        if s[i] == x:
            for j in range(i, n):
                s[j] = s[j + 1]
            s[0] = n - 1
            return
    raise ValueError()


@njit(**JIT)
def n_stack_pop_at(s, i):
    """s.pop(i) (Python's index: from the top when negative), or IndexError."""
    n = s[0]
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError()
    x = s[i + 1]
    for j in range(i + 1, n):
        s[j] = s[j + 1]
    s[0] = n - 1
    return x


@njit(**JIT)
def n_stack_copy(s, src):
    """s[:] = src, from another stack (an empty s made just before: `list(src)`)."""
    n = src[0]
    if n + 1 > len(s):
        raise IndexError()
    for i in range(1, n + 1):
        s[i] = src[i]
    s[0] = n


@njit(**JIT)
def n_stack_prepend(s, under):
    """s[:0] = under."""
    n, m = s[0], under[0]
    if n + m >= len(s):
        raise IndexError()
    for i in range(n, 0, -1):
        s[i + m] = s[i]
    for i in range(1, m + 1):
        s[i] = under[i]
    s[0] = n + m


@njit(**JIT)
def n_stack_set1(s, x):
    """s[:] = [x]."""
    s[1] = x
    s[0] = 1


@njit(**JIT)
def n_stack_under_top(s, cards):
    """s[-1:-1] = cards: the cards go in under the top one (on an empty stack, they are all of it)."""
    n, g = s[0], len(cards)
    if n + g >= len(s):
        raise IndexError()
    if n == 0:
        for i in range(g):
            s[1 + i] = cards[i]
        s[0] = g
        return
    top = s[n]
    for i in range(g):
        s[n + i] = cards[i]
    s[n + g] = top
    s[0] = n + g


# ---- masks of more than 64 faces, as two words (wide.py): (bits 0-63, bits 64-127) -----------
@njit(**JIT)
def n_wof(x):
    """An int as a pair, its sign extended (Python's ints read in two's complement)."""
    lo = np.int64(x)
    return (lo, np.int64(-1) if lo < 0 else np.int64(0))


@njit(**JIT)
def n_wand(a, b):
    return (a[0] & b[0], a[1] & b[1])


@njit(**JIT)
def n_wor(a, b):
    return (a[0] | b[0], a[1] | b[1])


@njit(**JIT)
def n_wxor(a, b):
    return (a[0] ^ b[0], a[1] ^ b[1])


@njit(**JIT)
def n_winv(a):
    return (~a[0], ~a[1])


@njit(**JIT)
def n_wneg(a):
    """-a in 128-bit two's complement: ~a + 1, the carry crossing into the high word when the low
    word is 0 (so `m & -m` is m's lowest face, as in Python)."""
    hi = ~a[1]
    if a[0] == 0:
        hi += 1
    return (-a[0], hi)


@njit(**JIT)
def n_wnz(a):
    """Whether a mask holds a face (`if m:`)."""
    return a[0] != 0 or a[1] != 0


@njit(**JIT)
def n_weq(a, b):
    return a[0] == b[0] and a[1] == b[1]


@njit(**JIT)
def n_wpopcount(a):
    return n_popcount(a[0]) + n_popcount(a[1])


@njit(**JIT)
def n_wbitlen(a):
    """int.bit_length of a mask of up to 128 faces."""
    if a[1] != 0:
        return 64 + n_bitlen(a[1])
    return n_bitlen(a[0])


@njit(**JIT)
def n_wfaces_in(a):
    """n_faces_in of a pair: the faces of the low word, then the high word's (face order)."""
    out = [0][:0]
    for w in range(2):
        m = a[w]
        while m:
            low = m & -m
            out.append(64 * w + n_bitlen(low) - 1)
            m ^= low
    return out


@njit(**JIT)
def n_wheld(h, a):
    """n_held of a pair."""
    out = [0][:0]
    for w in range(2):
        m = a[w]
        while m:
            low = m & -m
            f = 64 * w + n_bitlen(low) - 1
            for _ in range(h[f]):
                out.append(f)
            m ^= low
    return out


@njit(**JIT)
def n_wat1(t, i):
    return (t[i, 0], t[i, 1])


@njit(**JIT)
def n_wat2(t, i, j):
    return (t[i, j, 0], t[i, j, 1])


@njit(**JIT)
def n_wat3(t, i, j, k):
    return (t[i, j, k, 0], t[i, j, k, 1])
