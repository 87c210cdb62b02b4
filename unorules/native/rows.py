"""play_game's lists of tuples (the options of a reaction, of a jump-in, of a card played out of
turn) as stacks of rows: an int64 array of `capacity + 1` rows and one column per item of the
tuple, whose cell [0, 0] holds the length and rows 1.. the tuples, first appended first. A numba
list is allocated each time it is made, and these are made for each seat on each turn (perf on a
rulebook with cards played out of turn: malloc, free and NRT's meminfo calls were a third of its
time).

A name qualifies when every binding of it is `[]` and it is used only as this pass lowers:

    x = []                      x[0, 0] = 0 (the array made once per batch: scratch.py)
    x.append((a, b))            x[n_pushed(x[0, 0], len(x)), 0] = a; x[x[0, 0] + 1, 1] = b; x[0, 0] += 1
    len(x), not x, if x:        x[0, 0], x[0, 0] == 0, x[0, 0] > 0
    x[i][k]                     x[n_cell(x[0, 0], i), k]       (k a number below the tuple's size)
    a, b = x[i]                 a = x[n_cell(x[0, 0], i), 0]; b = x[..., 1]
    n_sort(x)                   n_rows_sort(x): Python's order of tuples (runtime.py)

every append a tuple of the same size. The items are numbers: a flag (True, False) is stored and
read back as 1 or 0, which every test and comparison of the code reads alike. A list that would
outgrow its rows raises IndexError, and the Python reference plays that game, as for the lists of
numbers (stacks.py). A list used in any other way stays a list: as right, only slower."""
from __future__ import annotations

import ast
import copy

from .stacks import LengthTruth, Unknown
from .syntax import bindings, call_ as _call, name_ as _name


def _length(x, ctx=None):
    return ast.Subscript(value=_name(x), slice=ast.Tuple(elts=[ast.Constant(0), ast.Constant(0)], ctx=ast.Load()),
                         ctx=ctx or ast.Load())


def _cell(x, row, column: int, ctx=None):
    index = ast.Tuple(elts=[row, ast.Constant(column)], ctx=ast.Load())
    return ast.Subscript(value=_name(x), slice=index, ctx=ctx or ast.Load())


class RowLowering(LengthTruth):
    def __init__(self, name: str, width: int, capacity: int):
        self.x, self.width, self.capacity = name, width, capacity

    def _is_x(self, e) -> bool:
        return isinstance(e, ast.Name) and e.id == self.x

    _held = _is_x

    def _length_of(self, name: str):
        return _length(name)

    def _row(self, index):
        return _call("n_cell", _length(self.x), self.visit(index))

    def visit_Assign(self, node):
        if len(node.targets) == 1:
            t, v = node.targets[0], node.value
            if self._is_x(t):
                if isinstance(v, ast.List) and not v.elts:
                    return ast.Assign(targets=[_name(self.x, ast.Store())],
                                      value=_call("n_rows_new", ast.Constant(self.capacity), ast.Constant(self.width)))
                raise Unknown(ast.unparse(node))
            if isinstance(t, ast.Tuple) and isinstance(v, ast.Subscript) and self._is_x(v.value):
                names = [e.id for e in t.elts if isinstance(e, ast.Name)]
                read = {n.id for n in ast.walk(v.slice) if isinstance(n, ast.Name)}
                if len(names) != len(t.elts) or len(names) != self.width or read & set(names) \
                        or isinstance(v.slice, ast.Slice):
                    raise Unknown(ast.unparse(node))
                row = self._row(v.slice)
                return [ast.Assign(targets=[_name(n, ast.Store())], value=_cell(self.x, copy.deepcopy(row), k))
                        for k, n in enumerate(names)]
        return self.generic_visit(node)

    def visit_Expr(self, node):
        v = node.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and self._is_x(v.func.value):
            if v.func.attr == "append" and len(v.args) == 1 and isinstance(v.args[0], ast.Tuple) \
                    and len(v.args[0].elts) == self.width and not v.keywords:
                pushed = _call("n_pushed", _length(self.x), _call("len", _name(self.x)))    # checked once
                top = ast.BinOp(left=_length(self.x), op=ast.Add(), right=ast.Constant(1))
                return [ast.Assign(targets=[_cell(self.x, pushed if k == 0 else copy.deepcopy(top), k, ast.Store())],
                                   value=self.visit(e)) for k, e in enumerate(v.args[0].elts)] + \
                    [ast.AugAssign(target=_length(self.x, ast.Store()), op=ast.Add(), value=ast.Constant(1))]
            raise Unknown(ast.unparse(node))
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "n_sort" \
                and len(v.args) == 1 and self._is_x(v.args[0]):
            return ast.Expr(value=_call("n_rows_sort", _name(self.x)))
        return self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1 and self._is_x(node.args[0]):
            return _length(self.x)
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        inner = node.value
        if isinstance(inner, ast.Subscript) and self._is_x(inner.value) and isinstance(node.ctx, ast.Load):
            k = node.slice
            if isinstance(inner.slice, ast.Slice) or not (isinstance(k, ast.Constant) and type(k.value) is int
                                                          and 0 <= k.value < self.width):
                raise Unknown(ast.unparse(node))
            return _cell(self.x, self._row(inner.slice), k.value)
        if self._is_x(inner):
            raise Unknown(ast.unparse(node))          # a whole tuple read, or a row written
        return self.generic_visit(node)

    def visit_Name(self, node):
        if self._is_x(node):
            raise Unknown(f"`{node.id}` used as a value")
        return node


def rows_as_stacks(fn: ast.FunctionDef, capacity: int) -> ast.FunctionDef:
    """play_game with each list of tuples that qualifies as a stack of rows (module docstring)."""
    binds = bindings(fn)
    params = {a.arg for a in fn.args.args}
    for name in sorted(binds):
        if name in params or not all(kind == "assign" and isinstance(v, ast.List) and not v.elts
                                     for kind, v in binds[name]):
            continue
        sizes = {len(c.args[0].elts) for c in ast.walk(fn) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Attribute) and c.func.attr == "append"
                 and isinstance(c.func.value, ast.Name) and c.func.value.id == name
                 and len(c.args) == 1 and isinstance(c.args[0], ast.Tuple)}
        if len(sizes) != 1 or 0 in sizes:
            continue
        try:
            fn = ast.fix_missing_locations(RowLowering(name, sizes.pop(), capacity).visit(copy.deepcopy(fn)))
        except Unknown:
            continue
    return fn
