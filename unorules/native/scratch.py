"""Passes over the lowered `play_game` that take numba's bookkeeping out of a game's hot path
(perf on rlcard: allocations, and reference counts of array views, were the largest costs once the
piles were stacks):

- **Arrays made once per batch.** A local array made by an allocator (`n_full`, `n_full2`,
  `n_stack_of`, `n_stack_new`) with a shape of numbers and module constants becomes a parameter of
  `play_game` of the same name, allocated once per batch (source.py: at the top of the batch's
  loop, where its shape is a constant to LLVM), and filled in place
  where the game made it: the same values, no malloc and free per game and per round. The name is
  never bound anew: a name bound in a branch is a phi node to numba, and each one counts
  references to its array (perf: 58% of official's native time, where a played card could
  reset the exposed seats and Shuffle Hands emptied the hands inside the turn loop). Only for a
  name that never escapes: its every read indexes it, loops over it, hands it to a function or copies it (never `y = x`, never
  an element of a tuple or a list), so filling it in place cannot change what another name sees.
- **Rows as indexes.** A local bound only to rows of such a grid (`hand = hc[p]`, `for h in hc`)
  and only ever indexed becomes the row's number (`hand = p`, and `hand[f]` reads `hc[hand, f]`):
  a row of a numba array is a view with a reference count, taken on every turn. The grid is filled
  in place, never made anew, so the row's number and its view always name the same cells. A grid
  one of whose rows a name holds as a view (a row handed on, not only indexed) keeps being made per
  game: filled in place, it would change under that name.
- **The game's random stream** (`n_rng(seed)`, made once at the top of the game) is the batch's one
  word, seeded again for each game.
- **A table copied into an array** (`hc[h, :] = NO_FACES`) is a call of runtime.py's n_copy_row or
  n_copy1, a loop: numba compiles an array assigned to a slice with the message of its shape
  error, about 1.6 s of every cold compile that has one.

- **A pick from the stream** (`int(n_rand(rnd) * n)`) is runtime.py's n_below(rnd, n): the same
  number, without numba's int() of a float, a call of its own in a function this large.
- **A range held in a name** (`vals = range(lo, hi + 1)`, the numbers a player may choose) is
  `np.arange(lo, hi + 1)`: numba loops over a range but cannot index one or take its length,
  and the code reads `vals[0]`, `vals[i]` and `len(vals)`. The same numbers, in an array made
  when the choice is made (not on the hot path). A range looped over directly stays a range.

A name that does not qualify keeps its code: as right, only slower."""
from __future__ import annotations

import ast

from .syntax import bindings, name_ as _name, parents

ALLOCATORS = ("n_full", "n_full2", "n_stack_of", "n_stack_new", "n_rows_new")


def _constant_shape(e) -> bool:
    """Numbers and module constants (upper-case names the generator makes) only."""
    return all(isinstance(n, (ast.Constant, ast.Tuple, ast.Load, ast.BinOp, ast.Add, ast.Mult, ast.Sub))
               or (isinstance(n, ast.Name) and n.id.isupper())
               for n in ast.walk(e)) and all(type(n.value) is int for n in ast.walk(e) if isinstance(n, ast.Constant))


def _allocation(value):
    """(allocator, the batch's allocation source, the in-place fill's maker) of an allocator call
    with a constant shape, else None."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ALLOCATORS):
        return None
    fn, args = value.func.id, value.args
    if fn in ("n_full", "n_full2") and len(args) == 2 and _constant_shape(args[0]):
        return fn, f"np.zeros({ast.unparse(args[0])}, np.int64)", \
            lambda x: [ast.Assign(targets=[ast.Subscript(value=_name(x), slice=ast.Slice(), ctx=ast.Store())],
                                  value=args[1])]
    if fn == "n_stack_of" and len(args) == 2 and _constant_shape(args[1]):
        return fn, f"np.zeros({ast.unparse(args[1])} + 1, np.int64)", \
            lambda x: [ast.Expr(value=ast.Call(func=_name("n_stack_load"), args=[_name(x), args[0]], keywords=[]))]
    if fn == "n_stack_new" and len(args) == 1 and _constant_shape(args[0]):
        return fn, f"np.zeros({ast.unparse(args[0])} + 1, np.int64)", \
            lambda x: [ast.Assign(targets=[ast.Subscript(value=_name(x), slice=ast.Constant(0), ctx=ast.Store())],
                                  value=ast.Constant(0))]
    if fn == "n_rows_new" and len(args) == 2 and _constant_shape(args[0]) and _constant_shape(args[1]):
        return fn, f"np.zeros(({ast.unparse(args[0])} + 1, {ast.unparse(args[1])}), np.int64)", \
            lambda x: [ast.Assign(targets=[ast.Subscript(value=_name(x), slice=ast.Tuple(
                elts=[ast.Constant(0), ast.Constant(0)], ctx=ast.Load()), ctx=ast.Store())], value=ast.Constant(0))]
    return None


def _contained(name, fn, above) -> bool:
    """Whether every read of `name` indexes it, loops over it, hands it to a named function, tests
    membership in it, or calls a method of it (`.copy()`)."""
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        up = above.get(id(node))
        if isinstance(up, ast.Subscript) and up.value is node:
            continue
        if isinstance(up, ast.For) and up.iter is node:
            continue
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and node in up.args:
            continue
        if isinstance(up, ast.Compare) and node in up.comparators and all(
                isinstance(o, (ast.In, ast.NotIn)) for o in up.ops):
            continue
        if isinstance(up, ast.Attribute) and up.value is node and up.attr == "copy":
            continue
        return False
    return True


class _Fill(ast.NodeTransformer):
    """Each allocation of a made name -> the batch's array, filled in place (a list of statements,
    which NodeTransformer splices into the block)."""
    def __init__(self, made: dict):
        self.made = made

    def visit_Assign(self, node):
        t = node.targets[0]
        if len(node.targets) == 1 and isinstance(t, ast.Name) and t.id in self.made:
            return _allocation(node.value)[2](t.id)          # filled in place, never bound anew
        return node


class _Rows(ast.NodeTransformer):
    def __init__(self, rows: dict):
        self.rows = rows                        # row name -> grid name

    def visit_Assign(self, node):
        t = node.targets[0]
        if len(node.targets) == 1 and isinstance(t, ast.Name) and t.id in self.rows:
            return ast.Assign(targets=node.targets, value=self.visit(node.value.slice))
        return self.generic_visit(node)

    def visit_For(self, node):
        if isinstance(node.target, ast.Name) and node.target.id in self.rows:
            grid = self.rows[node.target.id]
            shape = ast.Subscript(value=ast.Attribute(value=_name(grid), attr="shape", ctx=ast.Load()),
                                  slice=ast.Constant(0), ctx=ast.Load())
            node.iter = ast.Call(func=_name("range"), args=[shape], keywords=[])
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in self.rows:
            index = ast.Tuple(elts=[_name(node.value.id), self.visit(node.slice)], ctx=ast.Load())
            return ast.Subscript(value=_name(self.rows[node.value.id]), slice=index, ctx=node.ctx)
        return self.generic_visit(node)


def _row_of(kind, v):
    """The grid a binding takes a row of (`x = G[e]`, `for x in G`), else None."""
    if kind == "assign" and isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) \
            and not isinstance(v.slice, (ast.Tuple, ast.Slice)):
        return v.value.id
    if kind == "for" and isinstance(v, ast.Name):
        return v.id
    return None


def _rows(fn, bound, above, params, made, grids) -> dict[str, str]:
    """Names bound only to rows of one of these grids and only ever indexed: name -> grid."""
    rows: dict[str, str] = {}
    for name, binds in bound.items():
        if name in params or name in made or not binds:
            continue
        of = {_row_of(kind, v) for kind, v in binds}
        if len(of) != 1 or not of <= grids:
            continue
        reads = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
        if all(isinstance(above.get(id(n)), ast.Subscript) and above[id(n)].value is n
               and not isinstance(above[id(n)].slice, ast.Tuple) for n in reads):
            rows[name] = of.pop()
    return rows


def _stream_unaliased(fn: ast.FunctionDef, reseed: ast.Call, bound: dict) -> ast.FunctionDef:
    """The names that only ever hold the game's stream (`t1_ = n_reseed(S_rng, seed)`, then `rnd =
    t1_`, `arnd = t1_`) read S_rng itself: each name that holds an array counts a reference to it,
    twice a game (perf: NRT_incref)."""
    holder = next((st for st in fn.body if isinstance(st, ast.Assign) and st.value is reseed), None)
    if holder is None or len(holder.targets) != 1 or not isinstance(holder.targets[0], ast.Name) \
            or len(bound.get(holder.targets[0].id, ())) != 1:
        return fn
    temp = holder.targets[0].id
    names = {temp} | {name for name, binds in bound.items()
                      if binds and all(kind == "assign" and isinstance(v, ast.Name) and v.id == temp for kind, v in binds)}

    class Unalias(ast.NodeTransformer):
        def visit_Assign(self, node):
            if node is holder:
                return ast.Expr(value=reseed)
            t = node.targets[0]
            if len(node.targets) == 1 and isinstance(t, ast.Name) and t.id in names:
                return None
            return self.generic_visit(node)

        def visit_Name(self, node):
            return _name("S_rng") if node.id in names else node
    return Unalias().visit(fn)


def batch_arrays(fn: ast.FunctionDef) -> tuple[ast.FunctionDef, list[tuple[str, str]]]:
    """play_game with its per-game arrays as parameters filled in place, and its rows of those as
    indexes; and [(parameter, how it is allocated once per batch)]."""
    params = {a.arg for a in fn.args.args}
    above = parents(fn)
    bound = bindings(fn)
    made: dict[str, tuple] = {}
    for name, binds in bound.items():
        if name in params or not binds or any(kind != "assign" for kind, _ in binds):
            continue
        found = [_allocation(v) for _, v in binds]
        if any(f is None for f in found) or len({(f[0], f[1]) for f in found}) != 1:
            continue
        if _contained(name, fn, above):
            made[name] = found[0]
    while True:                          # a grid whose row is held by a name stays made per game
        grids = {name for name, f in made.items() if f[0] == "n_full2"}
        rows = _rows(fn, bound, above, params, made, grids)
        held = {g for name, binds in bound.items() for kind, v in binds if name not in rows
                for g in grids if _row_of(kind, v) == g}
        if not held:
            break
        for g in held:
            del made[g]
    extra = []
    seeded = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and n.func.id == "n_rng"]
    top_level = [n for st in fn.body if isinstance(st, ast.Assign) for n in ast.walk(st.value)]
    if len(seeded) == 1 and any(n is seeded[0] for n in top_level):     # the game's one stream
        seeded[0].func.id = "n_reseed"
        seeded[0].args.insert(0, _name("S_rng"))
        extra.append(("S_rng", "np.zeros(1, np.uint64)"))
        fn = _stream_unaliased(fn, seeded[0], bound)
    if not made and not extra:
        return fn, []
    fn = _Fill(made).visit(fn)
    fn = _Rows(rows).visit(fn)
    fn.args.args += [ast.arg(arg=name) for name in made] + [ast.arg(arg=name) for name, _ in extra]
    return ast.fix_missing_locations(fn), [(name, made[name][1]) for name in made] + extra


def copies_as_calls(fn: ast.FunctionDef, arrays: set[str]) -> ast.FunctionDef:
    """`x[:] = T` and `x[i, :] = T`, where T is one of these module arrays, as n_copy1(x, T) and
    n_copy_row(x, i, T): the same cells written, the same error (a length that differs raises)."""
    class Copies(ast.NodeTransformer):
        def visit_Assign(self, node):
            t, v = node.targets[0], node.value
            if len(node.targets) != 1 or not isinstance(t, ast.Subscript) or not isinstance(t.value, ast.Name) \
                    or not (isinstance(v, ast.Name) and v.id in arrays):
                return node
            whole = lambda e: isinstance(e, ast.Slice) and e.lower is None and e.upper is None and e.step is None
            if whole(t.slice):
                return ast.Expr(value=ast.Call(func=_name("n_copy1"), args=[_name(t.value.id), v], keywords=[]))
            if isinstance(t.slice, ast.Tuple) and len(t.slice.elts) == 2 and whole(t.slice.elts[1]) \
                    and not isinstance(t.slice.elts[0], ast.Slice):
                return ast.Expr(value=ast.Call(func=_name("n_copy_row"), args=[_name(t.value.id), t.slice.elts[0], v],
                                               keywords=[]))
            return node
    return ast.fix_missing_locations(Copies().visit(fn))


def picks_as_below(fn: ast.FunctionDef) -> ast.FunctionDef:
    """`int(n_rand(s) * n)` as n_below(s, n), the very number (runtime.py)."""
    class Picks(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if isinstance(node.func, ast.Name) and node.func.id == "int" and len(node.args) == 1 \
                    and not node.keywords and isinstance(node.args[0], ast.BinOp) \
                    and isinstance(node.args[0].op, ast.Mult):
                left, right = node.args[0].left, node.args[0].right
                if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "n_rand" \
                        and len(left.args) == 1 and not left.keywords:
                    return ast.Call(func=_name("n_below"), args=[left.args[0], right], keywords=[])
            return node
    return ast.fix_missing_locations(Picks().visit(fn))


def ranges_as_arrays(fn: ast.FunctionDef) -> ast.FunctionDef:
    """`x = range(a, b)` as `x = np.arange(a, b)` (module docstring): the same numbers, indexable."""
    class Ranges(ast.NodeTransformer):
        def visit_Assign(self, node):
            v = node.value
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "range" \
                    and 1 <= len(v.args) <= 2 and not v.keywords:
                node.value = ast.Call(func=ast.Attribute(value=_name("np"), attr="arange", ctx=ast.Load()),
                                      args=v.args, keywords=[])
            return self.generic_visit(node)
    return ast.fix_missing_locations(Ranges().visit(fn))
