"""Small pieces of Python syntax the native lowering builds and reads."""
from __future__ import annotations

import ast


def name_(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def call_(fn, *args):
    return ast.Call(func=name_(fn), args=list(args), keywords=[])


def const_(v):
    return ast.Constant(value=v)


def parse_stmts(text: str) -> list:
    return ast.parse(text).body


def assigned_names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def parents(fn) -> dict:
    """id(node) -> the node it sits in."""
    return {id(child): node for node in ast.walk(fn) for child in ast.iter_child_nodes(node)}


def bindings(fn) -> dict:
    """name -> how each place binds it: ("assign", value) for `name = value` (one target), ("for",
    iterable) for `for name in iterable`, ("other", None) for the rest (a tuple or chained target,
    an augmented assignment, a comprehension's variable)."""
    out: dict = {}

    def other(target):
        for n in ast.walk(target):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.setdefault(n.id, []).append(("other", None))
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                out.setdefault(node.targets[0].id, []).append(("assign", node.value))
            else:
                for t in node.targets:
                    other(t)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(("for", node.iter))
        elif isinstance(node, (ast.For, ast.AugAssign, ast.AnnAssign, ast.comprehension)):
            other(node.target)
    return out


def pure(e) -> bool:
    for n in ast.walk(e):
        if isinstance(n, ast.Call):
            f = n.func
            if not (isinstance(f, ast.Name) and f.id in ("list", "set", "len", "int", "range", "full", "full2")):
                return False
    return True


def is_none(v) -> bool:
    return isinstance(v, ast.Constant) and v.value is None


def is_int_list(v) -> bool:
    """`[k] * n` with an int k."""
    return (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult) and isinstance(v.left, ast.List)
            and len(v.left.elts) == 1 and isinstance(v.left.elts[0], ast.Constant)
            and type(v.left.elts[0].value) is int)


def is_grid(v) -> bool:
    """`[[k] * a for _ in range(b)]`."""
    return (isinstance(v, ast.ListComp) and is_int_list(v.elt) and len(v.generators) == 1
            and isinstance(v.generators[0].iter, ast.Call) and isinstance(v.generators[0].iter.func, ast.Name)
            and v.generators[0].iter.func.id == "range" and not v.generators[0].ifs)


class Rename(ast.NodeTransformer):
    """A comprehension's name, made fresh."""

    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old and self.new:
            return ast.Name(id=self.new, ctx=node.ctx)
        return node


def empty_ints():
    """`[0][:0]`: an empty list numba types as a list of ints."""
    return ast.Subscript(value=ast.List(elts=[const_(0)], ctx=ast.Load()),
                         slice=ast.Slice(lower=None, upper=const_(0), step=None), ctx=ast.Load())


def lex_beats(left: list, right: list, op) -> ast.expr:
    """Whether the locals `left` beat `right` in order, as tuples compare with `op` (ast.Gt, ast.Lt):
    l0 op r0 or (l0 == r0 and (l1 op r1 or ...))."""
    beats = ast.Compare(left=name_(left[-1]), ops=[op()], comparators=[name_(right[-1])])
    for a, b in zip(reversed(left[:-1]), reversed(right[:-1])):
        eq = ast.Compare(left=name_(a), ops=[ast.Eq()], comparators=[name_(b)])
        ahead = ast.Compare(left=name_(a), ops=[op()], comparators=[name_(b)])
        beats = ast.BoolOp(op=ast.Or(), values=[ahead, ast.BoolOp(op=ast.And(), values=[eq, beats])])
    return beats
