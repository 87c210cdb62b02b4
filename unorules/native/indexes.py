"""Indexes read as unsigned: the last pass over native code's syntax tree (source.py).

Python reads `a[i]` with a negative i from the end of `a`, and numba keeps that meaning: before
each array access computed at run time it writes a test of the index's sign and a select of
`i + len(a)` (a compare and a conditional move), then its bounds check. In native code those
selects sit on the turn's longest chain: the face a turn plays indexes its kind, its colour, the
hand's counts, and the next legal set is read by the colour and that kind.

Here every index that is not a number written in the code is wrapped in `np.uint64(...)`:

    hc[hand, card] -= 1           ->  hc[np.uint64(hand), np.uint64(card)] -= 1
    FACES_TO[color + 1, k]        ->  FACES_TO[np.uint64(color + 1), np.uint64(k)]
    discard[-1]                   ->  discard[-1]              (a number: its meaning is kept)

numba does not wrap an unsigned index; it still checks its bounds (JIT's boundscheck), and a
negative value, read as unsigned, is past every bound: it raises IndexError. A game that raises
inside compiled code is played again by the Python reference (program.py), so it still ends as
the reference's does, wrap included. The generated code reads the end of a pile through its
length (stacks.py's n_cell, which keeps Python's meaning) or through a number, so a negative
index computed at run time is a rule's corner or a fault, never the path a game takes; and
bench/native_check.py's count of games played by the reference would show one that did.

Lists (numba's reflected lists) test the sign of the bits whatever the type, so a list's index
keeps Python's meaning either way. Measured on rlcard with random seats: +7.4% games/s against
the control (bench/native_ab.py, 7 rotated repeats, each 1.053-1.081)."""
from __future__ import annotations

import ast


def is_number(e) -> bool:
    """An int written in the code (-1 included): an index whose meaning is kept."""
    return (isinstance(e, ast.Constant) and type(e.value) is int) or (
        isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)) and is_number(e.operand))


def is_unsigned(e) -> bool:
    """`np.uint64(x)`."""
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Name)
            and e.func.value.id == "np" and e.func.attr == "uint64")


def _unsigned(e):
    if isinstance(e, ast.Slice) or is_number(e) or is_unsigned(e):
        return e
    return ast.Call(func=ast.Attribute(value=ast.Name(id="np", ctx=ast.Load()), attr="uint64", ctx=ast.Load()),
                    args=[e], keywords=[])


class _Indexes(ast.NodeTransformer):
    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.slice, ast.Tuple):
            node.slice.elts = [_unsigned(e) for e in node.slice.elts]
        else:
            node.slice = _unsigned(node.slice)
        return node


def indexes_unsigned(fn: ast.FunctionDef) -> ast.FunctionDef:
    """Every index of the function computed at run time, read as unsigned."""
    return ast.fix_missing_locations(_Indexes().visit(fn))
