"""The draw and discard piles as stacks: an int64 array whose cell 0 holds the length and cells
1.. the cards, bottom first, in place of a list. A list costs numba an allocation and reference
counts at every use, and the piles are touched on every draw and play: as lists they made about
half of a native game's time (perf: malloc, free and NRT's reference counts).

Each use of `pile` and `discard` becomes an index or a call of runtime.py's n_* stack helpers,
which keep Python's list semantics (negative indexes count from the top; an index out of range
raises IndexError, as the reference's list would). Where a pile is used in a way this pass does
not know, both stay lists: the code is as right, only slower.

The helpers on the hot path (a cell, a push, a pop) take the length, a number, never the array:
a call that may raise and is handed an array makes numba count a reference before and after it,
two atomic operations that its pruning cannot pair across the raise. perf put 31% of rlcard's
native time in NRT_incref and NRT_decref before this."""
from __future__ import annotations

import ast
import copy

from .syntax import call_ as _call, name_ as _name

STACKS = ("pile", "discard")


def _is(e, name) -> bool:
    return isinstance(e, ast.Name) and e.id == name


class Unknown(Exception):
    """A use of a pile this pass does not lower."""


class LengthTruth(ast.NodeTransformer):
    """The truth of a list held as an array with its length in a cell: `not x`, `if x:`, `while
    x:`, `a and x` and `y if x else z` read the length. A subclass says which names it holds
    (`_held`) and where each one's length is (`_length_of`); a statement it lowers to several is
    spliced into its block."""

    def _held(self, e) -> bool:
        raise NotImplementedError

    def _length_of(self, name: str):
        raise NotImplementedError

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not) and self._held(node.operand):
            return ast.Compare(left=self._length_of(node.operand.id), ops=[ast.Eq()], comparators=[ast.Constant(0)])
        return self.generic_visit(node)

    def _truth(self, e):
        if self._held(e):
            return ast.Compare(left=self._length_of(e.id), ops=[ast.Gt()], comparators=[ast.Constant(0)])
        return self.visit(e)

    def _block(self, stmts):
        out = []
        for st in stmts:
            new = self.visit(st)
            out.extend(new if isinstance(new, list) else [new])
        return out

    def visit_If(self, node):
        return ast.If(test=self._truth(node.test), body=self._block(node.body), orelse=self._block(node.orelse))

    def visit_While(self, node):
        return ast.While(test=self._truth(node.test), body=self._block(node.body), orelse=self._block(node.orelse))

    def visit_BoolOp(self, node):
        return ast.BoolOp(op=node.op, values=[self._truth(v) for v in node.values])

    def visit_IfExp(self, node):
        return ast.IfExp(test=self._truth(node.test), body=self.visit(node.body), orelse=self.visit(node.orelse))


class StackLowering(LengthTruth):
    """One function's uses of the piles, as stack operations (`capacity`: the most cards)."""

    def __init__(self, capacity: int, names=STACKS):
        self.capacity = capacity
        self.names = frozenset(names)

    def _held(self, e) -> bool:
        return isinstance(e, ast.Name) and e.id in self.names

    def _length_of(self, name: str):
        return _length(name)

    def lower(self, fn: ast.FunctionDef) -> ast.FunctionDef:
        return ast.fix_missing_locations(self.visit(fn))

    # statements whose target is a pile
    def visit_Assign(self, node):
        if len(node.targets) == 1:
            t, v = node.targets[0], node.value
            if isinstance(t, ast.Name) and t.id in self.names:
                if isinstance(v, ast.Call) and _is(v.func, "list") and len(v.args) == 1 and _is(v.args[0], "DECK"):
                    full = _call("n_stack_of", _name("DECK"), ast.Constant(self.capacity))
                    return ast.Assign(targets=[t], value=full)
                if _empty_list(v):                                   # [0][:0]: an empty pile
                    return ast.Assign(targets=[t], value=_call("n_stack_new", ast.Constant(self.capacity)))
                if isinstance(v, ast.Call) and _is(v.func, "list") and len(v.args) == 1 \
                        and isinstance(v.args[0], ast.Name) and v.args[0].id in self.names and v.args[0].id != t.id:
                    return [ast.Assign(targets=[t], value=_call("n_stack_new", ast.Constant(self.capacity))),
                            ast.Expr(value=_call("n_stack_copy", _name(t.id), _name(v.args[0].id)))]
                raise Unknown(ast.unparse(node))
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in self.names:
                s = t.value.id
                if isinstance(t.slice, ast.Slice):
                    sl = t.slice
                    if s == "pile" and _const(sl.lower) is None and _const(sl.upper) == 0 and _is(v, "discard"):
                        return ast.Expr(value=_call("n_stack_prepend", _name("pile"), _name("discard")))
                    if s == "discard" and sl.lower is None and sl.upper is None and isinstance(v, ast.List) \
                            and len(v.elts) == 1:
                        return ast.Expr(value=_call("n_stack_set1", _name("discard"), self.visit(v.elts[0])))
                    if s == "discard" and _const(sl.lower) == -1 and _const(sl.upper) == -1:
                        return ast.Expr(value=_call("n_stack_under_top", _name("discard"), self.visit(v)))
                    raise Unknown(ast.unparse(node))
                cell = _call("n_cell", _length(s), self.visit(t.slice))
                return ast.Assign(targets=[ast.Subscript(value=_name(s), slice=cell, ctx=ast.Store())],
                                  value=self.visit(v))
            if isinstance(t, ast.Tuple):
                for e in ast.walk(t):
                    if isinstance(e, ast.Name) and e.id in self.names:
                        raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_AugAssign(self, node):
        for e in ast.walk(node.target):
            if isinstance(e, ast.Name) and e.id in self.names:
                raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and isinstance(v.func.value, ast.Name) \
                and v.func.value.id in self.names:
            s, op = v.func.value.id, v.func.attr
            if op == "append" and len(v.args) == 1:      # s[n + 1] = x (x read first, as Python does); s[0] = n + 1
                cell = _call("n_pushed", _length(s), _call("len", _name(s)))
                return [ast.Assign(targets=[ast.Subscript(value=_name(s), slice=cell, ctx=ast.Store())],
                                   value=self.visit(v.args[0])),
                        ast.AugAssign(target=_length(s, ast.Store()), op=ast.Add(), value=ast.Constant(1))]
            if op == "clear" and not v.args:
                return _assign0(s)
            if op == "pop" and not v.args:
                return ast.Assign(targets=[_length(s, ast.Store())], value=_call("n_popped", _length(s)))
            if op == "pop" and len(v.args) == 1:
                return ast.Expr(value=_call("n_stack_pop_at", _name(s), self.visit(v.args[0])))
            if op == "remove" and len(v.args) == 1:
                return ast.Expr(value=_call("n_stack_remove", _name(s), self.visit(v.args[0])))
            raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    # expressions
    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.names:
            if f.attr == "pop" and not node.args:
                return _call("n_stack_pop", _name(f.value.id))
            if f.attr == "pop" and len(node.args) == 1:
                return _call("n_stack_pop_at", _name(f.value.id), self.visit(node.args[0]))
            raise Unknown(ast.unparse(node))
        if _is(f, "len") and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in self.names:
            return _length(node.args[0].id)
        if isinstance(f, ast.Name) and f.id == "reshuffle":
            return ast.Call(func=f, args=[a if isinstance(a, ast.Name) and a.id in self.names else self.visit(a)
                                          for a in node.args], keywords=[])
        for a in node.args:
            if isinstance(a, ast.Name) and a.id in self.names:
                raise Unknown(ast.unparse(node))          # a pile handed to another function
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in self.names:
            if isinstance(node.slice, ast.Slice):
                raise Unknown(ast.unparse(node))
            s = node.value.id
            return ast.Subscript(value=_name(s), slice=_call("n_cell", _length(s), self.visit(node.slice)),
                                 ctx=node.ctx)
        return self.generic_visit(node)

    def visit_Compare(self, node):
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and isinstance(node.comparators[0], ast.Name) and node.comparators[0].id in self.names:
            has = _call("n_stack_has", _name(node.comparators[0].id), self.visit(node.left))
            return has if isinstance(node.ops[0], ast.In) else ast.UnaryOp(op=ast.Not(), operand=has)
        if any(isinstance(o, (ast.In, ast.NotIn)) for o in node.ops):
            for e in [node.left] + node.comparators:
                if isinstance(e, ast.Name) and e.id in self.names:
                    raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_For(self, node):
        if isinstance(node.iter, ast.Name) and node.iter.id in self.names:
            s = node.iter.id
            if node.orelse or not isinstance(node.target, ast.Name) or _changes(node.body, s):
                raise Unknown(ast.unparse(node))
            i = f"i_{s}_"                           # Python's own loop: item i while i < the length
            item = ast.Assign(targets=[_name(node.target.id, ast.Store())],
                              value=ast.Subscript(value=_name(s), slice=ast.BinOp(
                                  left=_name(i), op=ast.Add(), right=ast.Constant(1)), ctx=ast.Load()))
            return ast.For(target=_name(i, ast.Store()), iter=_call("range", _length(s)),
                           body=[item] + self._block(node.body), orelse=[])
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.names and isinstance(node.ctx, ast.Load):
            raise Unknown(f"`{node.id}` used as a value")
        return node


def _changes(stmts, s) -> bool:
    """Whether these statements may change list `s` (a method called on it, or `s` bound anew)."""
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is(n.func.value, s):
                return True
            if isinstance(n, ast.Name) and n.id == s and isinstance(n.ctx, ast.Store):
                return True
    return False


def _const(e):
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return None


def _length(s, ctx=None):
    return ast.Subscript(value=_name(s), slice=ast.Constant(0), ctx=ctx or ast.Load())


def _assign0(s):
    return ast.Assign(targets=[ast.Subscript(value=_name(s), slice=ast.Constant(0), ctx=ast.Store())],
                      value=ast.Constant(0))


def as_stacks(functions: list, capacity: int) -> list:
    """The functions with the piles as stacks, or unchanged where a use is unknown to this pass."""
    try:
        out = []
        for f in functions:
            if f.name == "shuffle":
                out.append(f)                 # over other lists (a hand's cards); a pile never reaches it
                continue
            if f.name == "reshuffle" or any(isinstance(n, ast.Name) and n.id in STACKS for n in ast.walk(f)):
                out.append(StackLowering(capacity).lower(copy.deepcopy(f)))
            else:
                out.append(f)
        shuffled = [n for f in out for n in ast.walk(f) if isinstance(n, ast.Call) and _is(n.func, "shuffle")
                    and any(isinstance(a, ast.Name) and a.id in STACKS for a in n.args)]
        if shuffled:
            raise Unknown("a pile shuffled")
        return out
    except Unknown:
        return functions


def _empty_list(v) -> bool:
    """`[0][:0]`: how the lowering writes an empty list of numbers."""
    return isinstance(v, ast.Subscript) and isinstance(v.value, ast.List) and len(v.value.elts) == 1 \
        and isinstance(v.slice, ast.Slice)


def _empty_or_copy(v, lists) -> bool:
    """An empty list of numbers (`[0][:0]`, never `[(0, 0)][:0]`: pairs stay lists) or a copy."""
    return (_empty_list(v) and isinstance(v.value.elts[0], ast.Constant) and v.value.elts[0].value == 0) or (isinstance(v, ast.Call) and _is(v.func, "list") and len(v.args) == 1
                              and isinstance(v.args[0], ast.Name) and v.args[0].id in lists)


def lists_as_stacks(fn: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """play_game's lists of numbers (the seats a catch may name, a window's seats still to ask, a
    draw's candidates) as stacks too: each made empty (`[0][:0]`) or copied from another such list
    (`list(xs)`), and used only by what this pass lowers (a membership test, append, remove,
    pop(i), an item, its length, its truth, a loop whose body leaves it alone). A numba list is
    allocated each time it is made, and counted at each use. A list that would outgrow the stack's
    cells raises IndexError, and the Python reference plays that game. A list used otherwise, or
    bound to anything else, stays a list."""
    binds: dict[str, list] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            binds.setdefault(n.targets[0].id, []).append(n.value)
        elif isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name):
            binds.setdefault(n.target.id, []).append(None)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            binds.setdefault(n.target.id, []).append(None)
    params = {a.arg for a in fn.args.args}
    lists = {k for k, vs in binds.items() if k not in params and k not in STACKS}
    while True:                                   # a copy only of lists that qualify
        keep = {k for k in lists if all(v is not None and _empty_or_copy(v, lists) for v in binds[k])}
        if keep == lists:
            break
        lists = keep
    group = {k: {k} for k in lists}              # a list and the lists it is copied from go together
    for k in sorted(lists):
        for v in binds[k]:
            if isinstance(v, ast.Call):
                merged = group[k] | group[v.args[0].id]
                for m in merged:
                    group[m] = merged
    for names in sorted({frozenset(g) for g in group.values()}, key=sorted):
        try:
            fn = StackLowering(capacity, names).lower(copy.deepcopy(fn))
        except Unknown:
            continue
    return fn
