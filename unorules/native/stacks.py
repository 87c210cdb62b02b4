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


class StackLowering(ast.NodeTransformer):
    """One function's uses of the piles, as stack operations (`capacity`: the most cards)."""

    def __init__(self, capacity: int):
        self.capacity = capacity

    def lower(self, fn: ast.FunctionDef) -> ast.FunctionDef:
        return ast.fix_missing_locations(self.visit(fn))

    # statements whose target is a pile
    def visit_Assign(self, node):
        if len(node.targets) == 1:
            t, v = node.targets[0], node.value
            if isinstance(t, ast.Name) and t.id in STACKS:
                if isinstance(v, ast.Call) and _is(v.func, "list") and len(v.args) == 1 and _is(v.args[0], "DECK"):
                    full = _call("n_stack_of", _name("DECK"), ast.Constant(self.capacity))
                    return ast.Assign(targets=[t], value=full)
                if isinstance(v, ast.Subscript) and isinstance(v.value, ast.List) and len(v.value.elts) == 1 \
                        and isinstance(v.slice, ast.Slice):          # [0][:0]: an empty pile
                    return ast.Assign(targets=[t], value=_call("n_stack_new", ast.Constant(self.capacity)))
                raise Unknown(ast.unparse(node))
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in STACKS:
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
                    if isinstance(e, ast.Name) and e.id in STACKS:
                        raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_AugAssign(self, node):
        for e in ast.walk(node.target):
            if isinstance(e, ast.Name) and e.id in STACKS:
                raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and isinstance(v.func.value, ast.Name) \
                and v.func.value.id in STACKS:
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
            raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    # expressions
    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in STACKS:
            if f.attr == "pop" and not node.args:
                return _call("n_stack_pop", _name(f.value.id))
            raise Unknown(ast.unparse(node))
        if _is(f, "len") and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id in STACKS:
            return _length(node.args[0].id)
        if isinstance(f, ast.Name) and f.id == "reshuffle":
            return ast.Call(func=f, args=[a if isinstance(a, ast.Name) and a.id in STACKS else self.visit(a)
                                          for a in node.args], keywords=[])
        for a in node.args:
            if isinstance(a, ast.Name) and a.id in STACKS:
                raise Unknown(ast.unparse(node))          # a pile handed to another function
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in STACKS:
            if isinstance(node.slice, ast.Slice):
                raise Unknown(ast.unparse(node))
            s = node.value.id
            return ast.Subscript(value=_name(s), slice=_call("n_cell", _length(s), self.visit(node.slice)),
                                 ctx=node.ctx)
        return self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Name) and node.operand.id in STACKS:
            return ast.Compare(left=_length(node.operand.id), ops=[ast.Eq()], comparators=[ast.Constant(0)])
        return self.generic_visit(node)

    def _truth(self, e):
        if isinstance(e, ast.Name) and e.id in STACKS:
            return ast.Compare(left=_length(e.id), ops=[ast.Gt()], comparators=[ast.Constant(0)])
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

    def visit_Compare(self, node):
        if any(isinstance(o, (ast.In, ast.NotIn)) for o in node.ops):
            for e in [node.left] + node.comparators:
                if isinstance(e, ast.Name) and e.id in STACKS:
                    raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_For(self, node):
        if isinstance(node.iter, ast.Name) and node.iter.id in STACKS:
            raise Unknown(ast.unparse(node))
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in STACKS and isinstance(node.ctx, ast.Load):
            raise Unknown(f"`{node.id}` used as a value")
        return node


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
