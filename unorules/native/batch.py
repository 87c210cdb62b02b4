"""play_game made the loop over a batch of games, not a function called once per game.

A numba function counts a reference to each array it is handed, on entry and again on leaving:
called once per game, `play_game` and its dozen arrays cost about 30 atomic counts a game (perf
and gdb on rlcard: 8% of its time, as much as a few turns), and the row and rounds views
(`out[g]`, `rounds[at:]`) it was handed cost two more each. Here the lowered game

    def play_game(seed, AG, row, rounds, *arrays):    # one game; its rounds from rounds[0] on
        ...
        return rounds_n_                              # the game's last statement: its rounds

becomes

    def play_game(seeds, codes, AG, out, rounds, starts, at, now, *arrays):
        for g in range(seeds.shape[0]):
            now[0] = g; now[1] = at                   # where it stands, should a game raise
            AG[:] = codes (a loop); seed = seeds[g]
            ... row[i] is out[g, i]; rounds[r, k] is rounds[at + r, k]; a full buffer returns (g, at)
            starts[g] = at; at += rounds_n_
        return seeds.shape[0], at

called once per batch by play_batch. The batch's names are fresh (none of the game's own), and
every local of the game is written before it is read in each game (Lowering.define_first), so a
game never sees the one before it. A game of another shape (a row or rounds used other than by
index, a return other than the buffer's) is NotNative, with the reason."""
from __future__ import annotations

import ast

from .syntax import name_ as _name, parents, parse_stmts
from .tables import NotNative

BATCH = ("seeds", "codes", "out", "starts", "at", "now", "g", "q")


def _fresh(names: set) -> dict[str, str]:
    """The batch's names, each made unlike every name of the game."""
    out = {}
    for base in BATCH:
        name = f"b_{base}"
        while name in names:
            name += "_"
        out[base] = name
    return out


class _Batch(ast.NodeTransformer):
    def __init__(self, b: dict[str, str]):
        self.b = b

    def visit_Subscript(self, node):
        self.generic_visit(node)
        v = node.value
        if isinstance(v, ast.Name) and v.id == "row" and not isinstance(node.slice, (ast.Tuple, ast.Slice)):
            return ast.Subscript(value=_name(self.b["out"]), ctx=node.ctx,
                                 slice=ast.Tuple(elts=[_name(self.b["g"]), node.slice], ctx=ast.Load()))
        if isinstance(v, ast.Name) and v.id == "rounds" and isinstance(node.slice, ast.Tuple) \
                and len(node.slice.elts) == 2 and not any(isinstance(e, ast.Slice) for e in node.slice.elts):
            r, k = node.slice.elts
            return ast.Subscript(value=v, ctx=node.ctx, slice=ast.Tuple(
                elts=[ast.BinOp(left=_name(self.b["at"]), op=ast.Add(), right=r), k], ctx=ast.Load()))
        if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "rounds" \
                and v.attr == "shape" and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
            return ast.BinOp(left=node, op=ast.Sub(), right=_name(self.b["at"]))
        return node

    def visit_Return(self, node):
        if not (isinstance(node.value, ast.UnaryOp) and isinstance(node.value.op, ast.USub)
                and isinstance(node.value.operand, ast.Constant) and node.value.operand.value == 1):
            raise NotNative("a game that returns before its end")
        return parse_stmts(f"return {self.b['g']}, {self.b['at']}")[0]


def games_loop(fn: ast.FunctionDef) -> ast.FunctionDef:
    """The lowered one-game play_game as the batch's loop (see the module's docstring)."""
    params = [a.arg for a in fn.args.args]
    if params[:4] != ["seed", "AG", "row", "rounds"] or not fn.body or not isinstance(fn.body[-1], ast.Return):
        raise NotNative("a game of another shape")
    names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | set(params)
    b = _fresh(names)
    g, at = b["g"], b["at"]
    body = [_Batch(b).visit(st) for st in fn.body[:-1]]
    module = ast.Module(body=body, type_ignores=[])
    above = parents(module)
    for n in ast.walk(module):
        if isinstance(n, ast.Name) and n.id in ("row", "rounds") and not _indexed(n, above.get(id(n)), at):
            raise NotNative(f"the game's `{n.id}` used other than by index")
    head = parse_stmts(f"{b['now']}[0] = {g}\n{b['now']}[1] = {at}\n"
                       f"for {b['q']} in range({b['codes']}.shape[0]):\n    AG[{b['q']}] = {b['codes']}[{b['q']}]\n"
                       f"seed = {b['seeds']}[{g}]")
    tail = parse_stmts(f"{b['starts']}[{g}] = {at}\n{at} += {ast.unparse(fn.body[-1].value)}")
    loop = ast.For(target=_name(g, ast.Store()), iter=ast.Call(func=_name("range"), args=[
        ast.parse(f"{b['seeds']}.shape[0]", mode="eval").body], keywords=[]), body=head + body + tail, orelse=[])
    args = [b["seeds"], b["codes"], "AG", b["out"], "rounds", b["starts"], at, b["now"]] + params[4:]
    out = ast.FunctionDef(name=fn.name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=a) for a in args], vararg=None, kwonlyargs=[], kw_defaults=[],
        kwarg=None, defaults=[]), body=[loop] + parse_stmts(f"return {b['seeds']}.shape[0], {at}"),
        decorator_list=[], returns=None, type_params=[])
    return ast.fix_missing_locations(out)


def _indexed(node: ast.Name, above, at: str) -> bool:
    """Whether this `rounds` is what a rewritten index reads (rounds[at + r, k], rounds.shape);
    no `row` is left once its indexes read `out`."""
    if node.id != "rounds":
        return False
    if isinstance(above, ast.Attribute):
        return above.attr == "shape"
    return isinstance(above, ast.Subscript) and above.value is node and isinstance(above.slice, ast.Tuple) \
        and isinstance(above.slice.elts[0], ast.BinOp) and isinstance(above.slice.elts[0].left, ast.Name) \
        and above.slice.elts[0].left.id == at
