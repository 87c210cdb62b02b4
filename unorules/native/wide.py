"""Face masks of decks of more than 64 faces, in two machine words (a pass over the lowered
`play_game`; numba has no 128-bit integer). The counted Python code holds a hand's faces, a rule's
legal faces and their tables as Python ints of any width; native code holds such a mask as a pair
of int64 words (bits 0-63, bits 64-127), a value numba keeps in registers.

Which values are masks is found by flow from what holds them:

- a table (a module constant) some entry of which is outside a word's range is a table of pairs,
  written with a last index of 2 (tables.emit with two words);
- an int literal outside a word's range is a pair;
- `a & b`, `a | b`, `a ^ b` with a pair on either side, `-a`, `~a` of a pair, `x if t else y`
  with a pair in either branch are pairs;
- a name assigned a pair is a pair everywhere (a plain int assigned to it is widened, its sign
  extended, as Python's ints read in two's complement); an array whose cells are assigned pairs
  (`hm[q] |= BIT[f]`) holds pairs, made with a last dimension of 2 (zeros only).

What reads a pair: the bit operations (`n_wand`, `n_wor`, `n_wxor`, `n_wneg`, `n_winv`), a truth
test (`n_wnz`), `== 0`, `!= 0` and equality (`n_weq`), the bit count and length (`n_wpopcount`,
`n_wbitlen`), and the helpers that list a mask's faces (`n_wfaces_in`, `n_wheld`). A pair in any
other place (arithmetic, an index, a list, a call of another function, a comparison by size, an
and/or used as a value) is a construct this pass does not translate: NotNative, with the reason,
and the run plays counted Python code. Only values; the statements are kept as written."""
from __future__ import annotations

import ast
import copy
import itertools

from .syntax import call_ as _call, const_ as _const, name_ as _name, pure
from .tables import NotNative, split_word, two_words

BITOPS = {ast.BitAnd: "n_wand", ast.BitOr: "n_wor", ast.BitXor: "n_wxor"}
ON_MASKS = {"n_popcount": "n_wpopcount", "n_bitlen": "n_wbitlen", "n_faces_in": "n_wfaces_in",
            "n_truthy": "n_wnz"}
HELPERS = ("n_wof", "n_wand", "n_wor", "n_wxor", "n_wneg", "n_winv", "n_wnz", "n_weq", "n_wpopcount", "n_wbitlen",
           "n_wfaces_in", "n_wheld", "n_wat1", "n_wat2", "n_wat3")
MAX_FACES = 128


def _index(sub: ast.Subscript) -> list | None:
    """The index expressions of `a[i]` / `a[i, j]`; None for a slice."""
    s = sub.slice
    if isinstance(s, ast.Slice) or (isinstance(s, ast.Tuple) and any(isinstance(e, ast.Slice) for e in s.elts)):
        return None
    return list(s.elts) if isinstance(s, ast.Tuple) else [s]


def _big(node) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and not -(1 << 63) <= node.value < 1 << 63


class WideMasks:
    """The analysis and the rewrite of one lowered `play_game`. `tables`: the module constants it
    reads (name -> value)."""

    def __init__(self, fn: ast.FunctionDef, tables: dict):
        self.fn = fn
        self.fresh = itertools.count(1)
        self.tables = {name: dims for name, v in tables.items() if (dims := two_words(v)) is not None and dims >= 0}
        self.names: set[str] = set()            # locals holding a pair
        self.arrays: dict[str, int] = {}        # local arrays of pairs -> indexes to a cell

    # ---- what holds a pair ------------------------------------------------------------------
    def cells(self, name: str) -> int | None:
        """How many indexes reach a pair in this array or table; None when it holds no pairs."""
        return self.arrays.get(name, self.tables.get(name) or None)

    def wide(self, e) -> bool:
        if _big(e):
            return True
        if isinstance(e, ast.Name):
            return e.id in self.names or self.tables.get(e.id) == 0
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name):
            dims = self.cells(e.value.id)
            if dims is None:
                return False
            idx = _index(e)
            if idx is None or len(idx) != dims:
                raise NotNative("a row or slice of a table of face masks wider than a word")
            return True
        if isinstance(e, ast.BinOp):
            either = self.wide(e.left) or self.wide(e.right)
            if either and type(e.op) not in BITOPS:
                raise NotNative("arithmetic on a face mask wider than a word")
            return either
        if isinstance(e, ast.UnaryOp):
            return isinstance(e.op, (ast.USub, ast.Invert)) and self.wide(e.operand)
        if isinstance(e, ast.IfExp):
            return self.wide(e.body) or self.wide(e.orelse)
        return False

    def _array_of(self, v) -> int | None:
        """The cells' depth of the pair array `v` names or copies (`a`, `a.copy()`)."""
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "copy" and not v.args:
            v = v.func.value
        return self.cells(v.id) if isinstance(v, ast.Name) else None

    def analyse(self):
        """Every local that holds a pair, found to a fixed point."""
        while True:
            before = (set(self.names), dict(self.arrays))
            for node in ast.walk(self.fn):
                if isinstance(node, ast.Assign):
                    for t in node.targets:
                        self._bind(t, node.value)
                elif isinstance(node, ast.AugAssign):
                    self._bind(node.target, node.value, node.op)
                elif isinstance(node, ast.For) and isinstance(node.iter, ast.Name) and self.cells(node.iter.id):
                    raise NotNative("a loop over a table of face masks wider than a word")
            if (self.names, self.arrays) == before:
                return

    def _bind(self, target, value, op=None):
        if isinstance(target, ast.Tuple):
            if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts):
                    self._bind(t, v)
            elif any(isinstance(t, ast.Name) and (t.id in self.names or t.id in self.arrays) for t in target.elts):
                raise NotNative("a face mask wider than a word unpacked from a tuple")
            return
        wide = self.wide(value)
        if wide and op is not None and type(op) not in BITOPS:
            raise NotNative("arithmetic on a face mask wider than a word")
        if isinstance(target, ast.Name):
            if wide:
                self.names.add(target.id)
            dims = self._array_of(value)
            if dims:
                self.arrays[target.id] = dims
            elif target.id in self.arrays and isinstance(value, ast.Name) and value.id not in self.tables:
                self.arrays[value.id] = self.arrays[target.id]      # an alias: both hold pairs
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and wide:
            idx = _index(target)
            if idx is None:
                raise NotNative("a slice assigned face masks wider than a word")
            name = target.value.id
            if name in self.tables:
                raise NotNative("a table of face masks written to")
            if self.arrays.setdefault(name, len(idx)) != len(idx):
                raise NotNative("an array of face masks indexed two ways")

    # ---- the rewrite ---------------------------------------------------------------------------
    def rewrite(self) -> ast.FunctionDef:
        self.analyse()
        if not self.names and not self.arrays and not self.uses_tables():
            return self.fn
        self.fn.body = self.block(self.fn.body)
        self.check_arrays_stay_arrays()
        return ast.fix_missing_locations(self.fn)

    def uses_tables(self) -> bool:
        return any(isinstance(n, ast.Name) and n.id in self.tables for n in ast.walk(self.fn))

    def check_arrays_stay_arrays(self):
        """A pair array is read only by indexing it, copying it or naming it for another name."""
        above = {id(c): n for n in ast.walk(self.fn) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(self.fn):
            if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and self.cells(node.id)):
                continue
            up = above.get(id(node))
            if isinstance(up, ast.Subscript) and up.value is node:
                continue
            if isinstance(up, ast.Attribute) and up.attr == "copy":
                continue
            if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id.startswith("n_wat") \
                    and up.args[0] is node:
                continue
            if isinstance(up, (ast.Assign, ast.Tuple)):
                continue
            raise NotNative("a table of face masks wider than a word handed on")

    def block(self, stmts: list) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(s, field, self.block(inner) or [ast.Pass()])
        for h in getattr(s, "handlers", []) or []:
            h.body = self.block(h.body) or [ast.Pass()]
        if isinstance(s, (ast.If, ast.While)):
            s.test = self.test(s.test)
            return [s]
        if isinstance(s, ast.Assign):
            return self.assign(s)
        if isinstance(s, ast.AugAssign):
            return self.aug_assign(s)
        if isinstance(s, ast.For):
            s.iter = self.value(s.iter)
            return [s]
        for field in ("value", "exc", "test"):
            if isinstance(getattr(s, field, None), ast.expr):
                setattr(s, field, self.value(getattr(s, field)))
        return [s]

    def assign(self, s: ast.Assign) -> list:
        if len(s.targets) != 1:
            raise NotNative("a chained assignment in code with face masks wider than a word")
        t = s.targets[0]
        if isinstance(t, ast.Name):
            if t.id in self.names:
                s.value = self.widened(s.value)
            elif t.id in self.arrays and self._array_of(s.value) is None:
                s.value = self.allocation(s.value, self.arrays[t.id])
            else:
                s.value = self.value(s.value)
            return [s]
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in self.arrays:
            if _index(t) is None:
                raise NotNative("a slice of an array of face masks wider than a word assigned")
            return self.store(t, self.widened(s.value))
        if isinstance(t, ast.Tuple) and isinstance(s.value, ast.Tuple):
            for tt, v in zip(t.elts, s.value.elts):
                if isinstance(tt, ast.Name) and tt.id in self.names:
                    raise NotNative("a face mask wider than a word assigned in a tuple")
        s.value = self.value(s.value)
        s.targets = [self.value(t)]
        return [s]

    def aug_assign(self, s: ast.AugAssign) -> list:
        t = s.target
        if isinstance(t, ast.Name) and t.id in self.names:
            return [ast.Assign(targets=[_name(t.id, ast.Store())],
                               value=_call(BITOPS[type(s.op)], _name(t.id), self.widened(s.value)))]
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in self.arrays:
            pre, idx = self.hoisted(_index(t))
            cell = self.load(t.value.id, idx)
            return pre + self.store(ast.Subscript(value=t.value, slice=ast.Tuple(elts=idx, ctx=ast.Load()),
                                                  ctx=ast.Store()),
                                    _call(BITOPS[type(s.op)], cell, self.widened(s.value)), hoist=False)
        if self.wide(s.value):
            raise NotNative("a face mask wider than a word added to a number")
        s.value = self.value(s.value)
        s.target = self.value(s.target)
        return [s]

    def hoisted(self, idx: list) -> tuple[list, list]:
        """Index expressions as names where they are not pure (so a cell's two words are read and
        written at one place, each expression evaluated once)."""
        pre, out = [], []
        for e in idx:
            e = self.value(e)
            if pure(e):
                out.append(e)
            else:
                n = f"wide_index{next(self.fresh)}_"
                pre.append(ast.Assign(targets=[_name(n, ast.Store())], value=e))
                out.append(_name(n))
        return pre, out

    def store(self, target: ast.Subscript, pair, hoist=True) -> list:
        """`a[i] = pair` as the two words' stores."""
        name = target.value.id
        pre, idx = self.hoisted(_index(target)) if hoist else ([], _index(target))
        if len(idx) != self.arrays[name]:
            raise NotNative("a row of an array of face masks wider than a word assigned")
        tmp = f"wide_cell{next(self.fresh)}_"
        out = pre + [ast.Assign(targets=[_name(tmp, ast.Store())], value=pair)]
        for w in (0, 1):
            cell = ast.Subscript(value=_name(name), slice=ast.Tuple(elts=[copy.deepcopy(i) for i in idx] + [_const(w)],
                                                                   ctx=ast.Load()), ctx=ast.Store())
            out.append(ast.Assign(targets=[cell], value=ast.Subscript(value=_name(tmp), slice=_const(w),
                                                                      ctx=ast.Load())))
        return out

    def allocation(self, v, dims: int):
        """The array's allocation with a last dimension of 2 (of zeros: a mask of no faces)."""
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("n_full", "n_full2") \
                and len(v.args) == 2 and isinstance(v.args[1], ast.Constant) and v.args[1].value == 0:
            shape = v.args[0].elts if isinstance(v.args[0], ast.Tuple) else [v.args[0]]
            if len(shape) == dims:
                return _call("n_full2", ast.Tuple(elts=[self.value(e) for e in shape] + [_const(2)], ctx=ast.Load()),
                             _const(0))
        raise NotNative("an array of face masks wider than a word made another way")

    # ---- values ---------------------------------------------------------------------------------
    def widened(self, e):
        """e as a pair: a plain int widened with its sign."""
        if self.wide(e):
            return self.value(e)
        if isinstance(e, ast.Constant) and type(e.value) in (int, bool):
            lo, hi = split_word(int(e.value))
            return ast.Tuple(elts=[_const(lo), _const(hi)], ctx=ast.Load())
        return _call("n_wof", self.value(e))

    def load(self, name: str, idx: list):
        dims = len(idx)
        if all(pure(i) for i in idx):
            return ast.Tuple(elts=[ast.Subscript(value=_name(name), slice=ast.Tuple(
                elts=[copy.deepcopy(i) for i in idx] + [_const(w)], ctx=ast.Load()), ctx=ast.Load()) for w in (0, 1)],
                ctx=ast.Load())
        if dims > 3:
            raise NotNative("a table of face masks with more than three indexes")
        return _call(f"n_wat{dims}", _name(name), *idx)

    def test(self, e):
        """e where Python tests its truth."""
        if isinstance(e, ast.BoolOp):
            return ast.BoolOp(op=e.op, values=[self.test(v) for v in e.values])
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return ast.UnaryOp(op=ast.Not(), operand=self.test(e.operand))
        if self.wide(e):
            return _call("n_wnz", self.value(e))
        return self.value(e)

    def value(self, e):
        if _big(e):
            return self.widened(e)
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and self.cells(e.value.id) \
                and isinstance(e.ctx, ast.Load):
            self.wide(e)                                   # refuses a row or a slice
            return self.load(e.value.id, [self.value(i) for i in _index(e)])
        if isinstance(e, ast.BinOp) and self.wide(e):
            return _call(BITOPS[type(e.op)], self.widened(e.left), self.widened(e.right))
        if isinstance(e, ast.UnaryOp):
            if isinstance(e.op, ast.Not):
                return ast.UnaryOp(op=ast.Not(), operand=self.test(e.operand))
            if self.wide(e):
                return _call("n_wneg" if isinstance(e.op, ast.USub) else "n_winv", self.value(e.operand))
        if isinstance(e, ast.IfExp):
            if self.wide(e):
                return ast.IfExp(test=self.test(e.test), body=self.widened(e.body), orelse=self.widened(e.orelse))
            return ast.IfExp(test=self.test(e.test), body=self.value(e.body), orelse=self.value(e.orelse))
        if isinstance(e, ast.Compare) and any(self.wide(x) for x in [e.left] + e.comparators):
            return self.compare(e)
        if isinstance(e, ast.BoolOp) and any(self.wide(v) for v in e.values):
            raise NotNative("and/or over face masks wider than a word, used as a value")
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            if any(self.wide(a) for a in e.args):
                return self.call(e)
        if self.wide(e):                                   # a pair as it is: a name, a constant
            return e
        for field, old in ast.iter_fields(e):            # a number made of numbers
            for x in (old if isinstance(old, list) else [old]):
                if isinstance(x, ast.expr) and self.wide(x):
                    raise NotNative("a face mask wider than a word used as a number")
            if isinstance(old, ast.expr):
                setattr(e, field, self.value(old))
            elif isinstance(old, list):
                setattr(e, field, [self.value(x) if isinstance(x, ast.expr) else x for x in old])
        return e

    def compare(self, e: ast.Compare):
        if len(e.ops) != 1 or type(e.ops[0]) not in (ast.Eq, ast.NotEq):
            raise NotNative("a face mask wider than a word compared by size")
        left, right = e.left, e.comparators[0]
        if isinstance(right, ast.Constant) and right.value == 0 or isinstance(left, ast.Constant) and left.value == 0:
            mask = left if self.wide(left) else right
            nz = _call("n_wnz", self.value(mask))
        else:
            nz = ast.UnaryOp(op=ast.Not(), operand=_call("n_weq", self.widened(left), self.widened(right)))
        return nz if isinstance(e.ops[0], ast.NotEq) else ast.UnaryOp(op=ast.Not(), operand=nz)

    def call(self, e: ast.Call):
        f = e.func.id
        if f in ON_MASKS and len(e.args) == 1:
            return _call(ON_MASKS[f], self.value(e.args[0]))
        if f == "n_held" and len(e.args) == 2 and not self.wide(e.args[0]):
            return _call("n_wheld", self.value(e.args[0]), self.widened(e.args[1]))
        raise NotNative(f"a face mask wider than a word handed to `{f}`")


def words_of(faces: int) -> int:
    """How many machine words hold a mask of this deck's faces: 1 or 2 (NotNative past 128)."""
    if faces > MAX_FACES:
        raise NotNative(f"masks of more than {MAX_FACES} faces (this deck has {faces}; native code holds a "
                        "mask in at most two machine words)")
    return 1 if faces <= 64 else 2


def widen_masks(fn: ast.FunctionDef, tables: dict, faces: int) -> ast.FunctionDef:
    """play_game with its masks in two words, for a deck of more than 64 faces (else unchanged)."""
    if words_of(faces) == 1:
        return fn
    return WideMasks(fn, tables).rewrite()
