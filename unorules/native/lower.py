"""The counted generator's `play_quiet`, lowered to the subset of Python that numba compiles in
nopython mode: the native simulator's source. A pass over the generated code's syntax tree,
the way a compiler's back end lowers its middle end's code for a target; the counted Python
program stays the reference, and the native one must play its very games (tests/test_native.py).

What the lowering changes (every other construct is kept as written, and numba compiles it):

    None                              -> NONE, an int far outside every rule's values (±MAX_VALUE)
    x is None, x is not None          -> x == NONE, x != NONE
    a truth test of what may be None  -> truthy(x): neither NONE nor 0
    rnd(), arnd()                     -> rand(rnd): SplitMix64 on a one-word state (native.rng)
    m.bit_count(), m.bit_length()     -> popcount(m), bitlen(m): LLVM's ctpop / ctlz
    [k] * n                           -> an int64 array; list(array) -> array.copy()
    [[k] * a for _ in range(b)]       -> a 2-D int64 array (rows swapped by copy)
    sum/any/next/min/max/tuple(g)     -> a loop before the statement (over fresh names)
    max(range(N), key=lambda q: (...)) -> a loop
    (p,) + OTHERS[d][p]               -> CYCLE[(d + 1) >> 1][p], a table of the seats in turn order
    OUTCOME_NAMES[k], ERROR           -> their codes
    a[i], an index computed at run time -> a[np.uint64(i)]: no wrap of a negative index; it raises
                                         (indexes.py, after every other pass)
    if T[k]: if k == K: <simple effect> -> x = e if k == K else x on every play, and the guard
                                         reads T without K (predicate.py: no branch on a kind)
    a key tuple compared with `>`     -> one local per component, compared in order
    raise ...                         -> raise NativeStop(), out of the compiled code
    try: ... except (a stall, an error) -> the body alone: the game that raises is played again by
                                         the Python reference, which ends it as stalled or in error
    return RESULT(...)                -> the game's row of ints and its rounds, written to arrays
    turns/drawn_per_round.append(...) -> the round's row of the batch's `rounds` array, as it ends
    x = [a, b]; for t in x: ...       -> x_0_ = a; x_1_ = b; t = x_0_; ...; t = x_1_; ... (unrolled)
    a[:] = [a[f(q)] for q in range(n)] -> t = a.copy(); a[q] = t[f(q)] for each q (in place)
    tracked.add(q)                    -> a mask of seats
    xs.sort()                         -> n_sort(xs): an insertion sort (numba's own sort of a list of
                                         tuples costs seconds of every cold compile)
    the helpers (HELD, FACES_IN, HAND_POINTS, CHANCE_PICK, BOUNDED, SEAT, MODULO) -> numba functions

The tables become module constants written with `repr` of ints, floats and booleans only
(tables.py). A construct this pass does not know raises NotNative with the reason, and the run
falls back to the counted Python code, saying so. The messages of rule errors are not carried:
a game that ends in an error is played again by the Python reference, which names the rule."""
from __future__ import annotations

import ast
import copy
import itertools

from .expressions import ExprLowering
from .names import NameAnalysis
from .syntax import (assigned_names, bindings, call_ as _call, const_ as _const, is_grid, is_none,
                     name_ as _name, parents, parse_stmts, pure)
from .tables import NotNative, emit

ROW_FIELDS = ("outcome", "winner", "round_no", "drawn", "plays", "reshuffles", "decisions", "turn_decisions",
              "challenges", "challenges_won", "catches", "tracked", "rounds")


ROUND_LISTS = {"turns_per_round": "rounds_n_", "drawn_per_round": "rounds_drawn_"}


def _breaks(stmts) -> bool:
    """Whether a `break` or `continue` of this loop (not of a loop inside it) is among the statements."""
    for st in stmts:
        if isinstance(st, (ast.Break, ast.Continue)):
            return True
        if isinstance(st, (ast.For, ast.While)):
            continue
        for field in ("body", "orelse", "handlers", "finalbody"):
            inner = getattr(st, field, None)
            if isinstance(inner, list) and _breaks([x for x in inner if isinstance(x, ast.stmt)] +
                                                   [b for h in inner if isinstance(h, ast.ExceptHandler)
                                                    for b in h.body]):
                return True
    return False


class _SumOfDrawn(ast.NodeTransformer):
    """sum(drawn_per_round) -> the running total of the rounds written so far."""
    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "sum" and len(node.args) == 1 \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == "drawn_per_round":
            return _name("rounds_drawn_")
        return self.generic_visit(node)


class Lowering(NameAnalysis):
    """One generated program's play_quiet as native source. `tables`: the namespace the Python
    program is loaded with (generated.tables), read for what each global name holds."""

    def __init__(self, source: str, tables: dict):
        self.tree = ast.parse(source)
        self.tables = tables
        self.fresh = itertools.count(1)
        self.arrays: set[str] = set()          # locals held as int64 arrays (1-D)
        self.grids: set[str] = set()           # locals held as 2-D int64 arrays
        self.maybe_none: set[str] = set()
        self.keys: dict[str, int] = {}         # tuple locals kept as one local per component: name -> length
        self.key_flags: set[str] = set()       # of those, the ones that may be None (a flag says which)
        self.assigned: set[str] = set()        # every name the function binds
        self._checked: set[str] = set()        # tables found fit to be constants
        self.pair_lists: set[str] = set()      # lists whose appends are tuples
        self.empty_lists: set[str] = set()     # lists only ever empty (a rule that gives no one points)
        self.round_rows = False                # the round lists written straight to `rounds` (rounds_in_place)
        self.literal_lists: dict[str, int] = {}  # lists looped over once, unrolled (lists_looped_once)

    # ---- the whole function ------------------------------------------------------------------
    def functions(self) -> dict[str, ast.FunctionDef]:
        return {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}

    def lower(self) -> list[ast.FunctionDef]:
        """The lowered helper functions and `play_game`."""
        fns = self.functions()
        if "play_quiet" not in fns:
            raise NotNative("the generated code has no quiet variant")
        play = fns["play_quiet"]
        self.assigned = assigned_names(play) | {a.arg for a in play.args.args if not a.arg.isupper()}
        self.analyse(play)
        nodes = list(ast.walk(play))
        grown = {n.func.value.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and isinstance(n.func.value, ast.Name) and n.func.attr in ("append", "insert", "extend")}
        grown |= {n.target.id for n in nodes if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}
        self.empty_lists = {name for name, binds in bindings(play).items() if name not in grown
                            and all(kind == "assign" and isinstance(v, ast.List) and not v.elts for kind, v in binds)}
        self.pair_lists = {n.func.value.id for n in ast.walk(play) if isinstance(n, ast.Call)
                           and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
                           and isinstance(n.func.value, ast.Name) and n.args and isinstance(n.args[0], ast.Tuple)}
        self.round_rows = self.rounds_in_place(play)
        self.literal_lists = self.lists_looped_once(play)
        out = []
        for name in ("shuffle", "reshuffle"):
            if name in fns:
                f = copy.deepcopy(fns[name])
                f.body = self.block(f.body)
                out.append(f)
        body = parse_stmts("tracked = 0") + self.block(play.body)
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in ("seed", "AG", "row", "rounds")],
                             vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fn = ast.FunctionDef(name="play_game", args=args, body=body, decorator_list=[], returns=None, type_params=[])
        out.append(fn)
        out = [self.define_first(self.prune_dead_stores(f)) for f in out]
        for f in out:
            self.check(f)
        return out

    def emittable(self, name: str):
        """Raises NotNative, with the reason, where the table cannot be a native constant."""
        if name not in self._checked:
            emit(name, self.tables[name], words=2 if self.tables.get("NFACES", 0) > 64 else 1)
            self._checked.add(name)

    # ---- statements --------------------------------------------------------------------------
    def block(self, stmts: list) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out or [ast.Pass()]

    def stmt(self, s) -> list:
        pre: list = []
        expr = ExprLowering(self, pre)
        if isinstance(s, ast.Try):
            return self.try_(s)
        if isinstance(s, ast.Raise):
            return self.raise_(s)
        if isinstance(s, ast.Return):
            if isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "RESULT":
                return self.result(s.value)
            return [ast.Return(value=expr.visit(s.value) if s.value is not None else None)]
        if isinstance(s, ast.Expr):
            v = s.value
            if self.round_rows and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
                    and isinstance(v.func.value, ast.Name) and v.func.value.id in ROUND_LISTS:
                return self.round_row(v.func.value.id, v.args[0])
            if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "add"
                    and isinstance(v.func.value, ast.Name) and v.func.value.id == "tracked"):
                arg = expr.visit(v.args[0])
                return pre + [ast.AugAssign(target=_name("tracked", ast.Store()), op=ast.BitOr(),
                                            value=ast.BinOp(left=_const(1), op=ast.LShift(), right=arg))]
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "sort" \
                    and isinstance(v.func.value, ast.Name) and not v.args and not v.keywords:
                return [ast.Expr(value=_call("n_sort", expr.visit(v.func.value)))]
            return pre + [ast.Expr(value=expr.visit(v))]
        if isinstance(s, ast.Assign):
            return self.assign(s, expr, pre)
        if isinstance(s, ast.AugAssign):
            if isinstance(s.target, ast.Name) and s.target.id in self.keys:
                raise NotNative("an arithmetic update of a key tuple")
            value = expr.visit(s.value)
            target = expr.visit(s.target)
            return pre + [ast.AugAssign(target=target, op=s.op, value=value)]
        if isinstance(s, ast.If):
            test = expr.truth(s.test)
            return pre + [ast.If(test=test, body=self.block(s.body), orelse=self.block(s.orelse) if s.orelse else [])]
        if isinstance(s, ast.While):
            test = expr.truth(s.test)
            if pre:
                raise NotNative("a loop whose test gathers values")
            return [ast.While(test=test, body=self.block(s.body), orelse=self.block(s.orelse) if s.orelse else [])]
        if isinstance(s, ast.For):
            if s.orelse:
                raise NotNative("a loop with an else")
            if isinstance(s.iter, ast.Name) and s.iter.id in self.empty_lists:
                return []                            # over a list that is only ever empty: no round
            if isinstance(s.iter, ast.Name) and s.iter.id in self.literal_lists:
                out = []                             # over a list literal: its body once per element
                for i in range(self.literal_lists[s.iter.id]):
                    out += self.assign(ast.Assign(targets=[s.target], value=_name(f"{s.iter.id}_{i}_")),
                                       ExprLowering(self, []), [])
                    out += self.block(s.body)
                return out
            it = expr.visit(s.iter)
            target = expr.visit(s.target)
            return pre + [ast.For(target=target, iter=it, body=self.block(s.body), orelse=[])]
        if isinstance(s, (ast.Break, ast.Continue, ast.Pass)):
            return [s]
        if isinstance(s, ast.Delete):
            raise NotNative("deleting from a list")
        raise NotNative(f"a `{type(s).__name__}` statement")

    def assign(self, s, expr, pre) -> list:
        if self.round_rows and isinstance(s.targets[0], ast.Name) and s.targets[0].id in ROUND_LISTS:
            return parse_stmts(f"{ROUND_LISTS[s.targets[0].id]} = 0")
        if isinstance(s.targets[0], ast.Name) and s.targets[0].id in self.literal_lists:
            name = s.targets[0].id               # each element, evaluated here, into a local of its own
            return pre + [ast.Assign(targets=[_name(f"{name}_{i}_", ast.Store())], value=expr.visit(e))
                          for i, e in enumerate(s.value.elts)]
        if len(s.targets) > 1:                       # a = b = value: one value, bound twice
            tmp = f"t{next(self.fresh)}_"
            out = self.assign(ast.Assign(targets=[_name(tmp, ast.Store())], value=s.value), expr, pre)
            for t in s.targets:
                out += self.assign(ast.Assign(targets=[t], value=_name(tmp)), ExprLowering(self, []), [])
            return out
        target, value = s.targets[0], s.value
        if isinstance(target, ast.Name) and target.id in self.keys:
            return pre + self.assign_key(target.id, value, expr)
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts) \
                and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in self.grids
                        for t in target.elts):
            # rows of a grid swapped: copies, since a row of an array is a view
            tmps = [f"t{next(self.fresh)}_" for _ in value.elts]
            out = list(pre)
            for tmp, v in zip(tmps, value.elts):
                lv = expr.visit(v)
                if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and v.value.id in self.grids:
                    lv = ast.Call(func=ast.Attribute(value=lv, attr="copy", ctx=ast.Load()), args=[], keywords=[])
                out.append(ast.Assign(targets=[_name(tmp, ast.Store())], value=lv))
            for t, tmp in zip(target.elts, tmps):
                out.append(ast.Assign(targets=[expr.visit(t)], value=_name(tmp)))
            return out
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                and target.value.id in self.arrays | self.grids and isinstance(target.slice, ast.Slice) \
                and target.slice.lower is None and target.slice.upper is None and target.slice.step is None \
                and isinstance(value, ast.ListComp) and len(value.generators) == 1:
            return pre + self.permute(target.value.id, value, expr)
        if isinstance(target, ast.Name) and target.id in self.grids and is_grid(value):
            shape = ast.Tuple(elts=[expr.visit(value.generators[0].iter.args[-1]), expr.visit(value.elt.right)],
                              ctx=ast.Load())
            fill = _const(value.elt.left.elts[0].value)
            return pre + [ast.Assign(targets=[target], value=_call("n_full2", shape, fill))]
        expr.pairs = isinstance(target, ast.Name) and target.id in self.pair_lists
        lowered = expr.visit(value)
        expr.pairs = False
        return pre + [ast.Assign(targets=[expr.visit(target)], value=lowered)]

    def permute(self, name, comp, expr) -> list:
        """a[:] = [a[f(q)] for q in range(n)] (hands passed round the table, in place) -> a copy
        of a, then a[q] = copy[f(q)] for each q: an array's rows are copied, where Python's list
        moves them; the values are the same."""
        gen, elt = comp.generators[0], comp.elt
        if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name) or not (
                isinstance(gen.iter, ast.Call) and isinstance(gen.iter.func, ast.Name) and gen.iter.func.id == "range"
                and len(gen.iter.args) == 1) or not (isinstance(elt, ast.Subscript) and isinstance(elt.value, ast.Name)
                                                     and elt.value.id == name
                                                     and not isinstance(elt.slice, (ast.Slice, ast.Tuple))):
            raise NotNative("a list assigned into an array")
        was = f"t{next(self.fresh)}_"
        q = gen.target.id
        moved = ast.Subscript(value=_name(was), slice=expr.visit(elt.slice), ctx=ast.Load())
        if name in self.grids:                   # a row: copied by a loop (scratch.copies_as_calls)
            step = ast.Expr(value=_call("n_copy_row", _name(name), _name(q), moved))
        else:
            step = ast.Assign(targets=[ast.Subscript(value=_name(name), slice=_name(q), ctx=ast.Store())], value=moved)
        loop = ast.For(target=_name(q, ast.Store()), iter=expr.visit(gen.iter), orelse=[], body=[step])
        copy_ = ast.Call(func=ast.Attribute(value=_name(name), attr="copy", ctx=ast.Load()), args=[], keywords=[])
        return [ast.Assign(targets=[_name(was, ast.Store())], value=copy_), loop]

    def assign_key(self, name, value, expr) -> list:
        n = self.keys[name]
        if is_none(value):
            return [ast.Assign(targets=[_name(f"{name}_set", ast.Store())], value=_const(False))] + [
                ast.Assign(targets=[_name(f"{name}_{i}", ast.Store())], value=_const(0)) for i in range(n)]
        if isinstance(value, ast.Tuple):
            out = [ast.Assign(targets=[_name(f"{name}_{i}", ast.Store())], value=expr.visit(v))
                   for i, v in enumerate(value.elts)]
        elif isinstance(value, ast.Name) and value.id in self.keys:
            out = [ast.Assign(targets=[_name(f"{name}_{i}", ast.Store())], value=_name(f"{value.id}_{i}"))
                   for i in range(n)]
        else:
            raise NotNative("a key tuple from an expression")
        if name in self.key_flags:
            out.append(ast.Assign(targets=[_name(f"{name}_set", ast.Store())], value=_const(True)))
        return out

    def try_(self, s) -> list:
        """The round's `except TurnStalled` and the game's `except RuleRuntimeError / RULE_FAILURES`
        are left out: an error or a stall raises out of the compiled code, and the batch's driver
        has the Python reference play that one game (program.py). A `try` costs numba dearly
        (its analysis passes grow with every call inside one: 190 s against 3 s for rlcard)."""
        names = {h.type.id if isinstance(h.type, ast.Name) else None for h in s.handlers}
        if s.orelse or s.finalbody or not (names == {"TurnStalled"} or names == {"RuleRuntimeError", "RULE_FAILURES"}):
            raise NotNative("a try the lowering does not know")
        return self.block(s.body)

    def raise_(self, s) -> list:
        e = s.exc
        if (isinstance(e, ast.Name) and e.id == "TURN_STALLED") or (
                isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "RuleRuntimeError"):
            return parse_stmts("raise NativeStop()")
        raise NotNative("an exception the lowering does not know")

    def rounds_in_place(self, play) -> bool:
        """Whether the game's round lists (turns_per_round, drawn_per_round) are only made empty,
        appended to, summed in the append and handed to RESULT: then each round is written to the
        batch's `rounds` array as it ends, with no list to make per game."""
        above = parents(play)
        if self.assigned & set(ROUND_LISTS.values()):
            return False
        for node in ast.walk(play):
            if not (isinstance(node, ast.Name) and node.id in ROUND_LISTS):
                continue
            up = above.get(id(node))
            if isinstance(node.ctx, ast.Store):
                ok = isinstance(up, ast.Assign) and len(up.targets) == 1 and isinstance(up.value, ast.List) \
                    and not up.value.elts
            elif isinstance(up, ast.Attribute):
                call = above.get(id(up))
                ok = up.attr == "append" and isinstance(call, ast.Call) and len(call.args) == 1 \
                    and isinstance(above.get(id(call)), ast.Expr)
            elif isinstance(up, ast.Call) and isinstance(up.func, ast.Name):
                ok = up.func.id == "RESULT" or (up.func.id == "sum" and node.id == "drawn_per_round")
            else:
                ok = False
            if not ok:
                return False
        return True

    def lists_looped_once(self, play) -> dict[str, int]:
        """Lists bound once, to a literal, and read only by one `for` whose body neither breaks nor
        continues it (`gained = [(winner, points)]` then `for q, g in gained:`): name -> length.
        Their loop is unrolled over locals, with no list made on every round."""
        loops = [n for n in ast.walk(play) if isinstance(n, ast.For) and isinstance(n.iter, ast.Name)]
        reads: dict = {}
        for n in ast.walk(play):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                reads[n.id] = reads.get(n.id, 0) + 1
        found = {}
        for name, binds in bindings(play).items():
            if len(binds) != 1 or binds[0][0] != "assign" or not isinstance(binds[0][1], ast.List) \
                    or not binds[0][1].elts or reads.get(name) != 1 or f"{name}_0_" in self.assigned:
                continue
            loop = [f for f in loops if f.iter.id == name]
            if len(loop) == 1 and not loop[0].orelse and not _breaks(loop[0].body):
                found[name] = len(binds[0][1].elts)
        return found

    def round_row(self, name, value) -> list:
        """turns_per_round.append(t); drawn_per_round.append(d - sum(drawn_per_round)) -> the round's
        row of `rounds` (a full buffer returns -1: the driver grows it and plays the game again)."""
        pre: list = []
        expr = ExprLowering(self, pre)
        if name == "turns_per_round":
            return pre + parse_stmts("if rounds_n_ >= rounds.shape[0]:\n    return -1") + [
                ast.Assign(targets=[ast.Subscript(value=_name("rounds"), slice=ast.Tuple(
                    elts=[_name("rounds_n_"), _const(0)], ctx=ast.Load()), ctx=ast.Store())],
                    value=expr.visit(value))]
        value = _SumOfDrawn().visit(copy.deepcopy(value))
        return pre + [ast.Assign(targets=[ast.Subscript(value=_name("rounds"), slice=ast.Tuple(
            elts=[_name("rounds_n_"), _const(1)], ctx=ast.Load()), ctx=ast.Store())], value=expr.visit(value))] + \
            parse_stmts("rounds_drawn_ += rounds[rounds_n_, 1]\nrounds_n_ += 1")

    def result(self, call) -> list:
        """RESULT(outcome, winner, error, round_no, scores, turns_per_round, drawn_per_round, drawn,
        plays, reshuffles, decisions, turn_decisions, challenges, challenges_won, catches, tracked,
        log[, seats]) -> the row and the rounds."""
        a = [ast.unparse(x) for x in call.args]
        if len(a) not in (17, 18) or a[4] != "scores" or a[5] != "turns_per_round":
            raise NotNative("a result of another shape")
        winner = f"-1 if {a[1]} == NONE else {a[1]}"
        fields = {"outcome": a[0], "winner": winner, "round_no": a[3], "drawn": a[7], "plays": a[8],
                  "reshuffles": a[9], "decisions": a[10], "turn_decisions": a[11], "challenges": a[12],
                  "challenges_won": a[13], "catches": a[14], "tracked": "tracked",
                  "rounds": "rounds_n_" if self.round_rows else "len(turns_per_round)"}
        lines = [f"row[{i}] = {fields[f]}" for i, f in enumerate(ROW_FIELDS)]
        base = len(ROW_FIELDS)
        lines.append("for q in range(N):")
        lines.append(f"    row[{base} + q] = scores[q]")
        lines.append(f"    row[{base} + N + q] = {'seats[q]' if len(a) == 18 else 'q'}")
        if self.round_rows:
            lines.append("return rounds_n_")
            return parse_stmts("\n".join(lines))
        lines.append("if len(turns_per_round) > rounds.shape[0]:")
        lines.append("    return -1")
        lines.append("for r in range(len(turns_per_round)):")
        lines.append("    rounds[r, 0] = turns_per_round[r]")
        lines.append("    rounds[r, 1] = drawn_per_round[r]")
        lines.append("return len(turns_per_round)")
        return parse_stmts("\n".join(lines))

    # ---- after the lowering ------------------------------------------------------------------
    def define_first(self, fn):
        """numba wants a name written before the code first reads it, in the text's order (a loop's
        later rounds set `next_dealer` before an earlier line reads it): such a name starts at 0,
        which no path reads (the Python code would fail there on an unbound name)."""
        fn = ast.parse(ast.unparse(ast.fix_missing_locations(fn))).body[0]
        params = {a.arg for a in fn.args.args}
        seen, early = set(params), []
        names = sorted((n for n in ast.walk(fn) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
        stores = {n.id for n in names if isinstance(n.ctx, ast.Store)}
        for n in names:
            if n.id in seen:
                continue
            if isinstance(n.ctx, ast.Load) and n.id in stores:
                early.append(n.id)
            seen.add(n.id)
        list_like = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) for t in n.targets
                     if isinstance(t, ast.Name) and isinstance(n.value, (ast.List, ast.ListComp))}
        if set(early) & list_like:
            raise NotNative(f"a list read before it is made: `{sorted(set(early) & list_like)[0]}`")
        fn.body[:0] = [ast.Assign(targets=[_name(v, ast.Store())], value=_const(0)) for v in early]
        return ast.fix_missing_locations(fn)

    @staticmethod
    def prune_dead_stores(fn):
        """`x = <pure value>` where x is never read (numba cannot type an empty list nobody fills)."""
        while True:
            loads = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            removed = False
            for node in ast.walk(fn):
                for field in ("body", "orelse", "finalbody"):
                    stmts = getattr(node, field, None)
                    if not isinstance(stmts, list):
                        continue
                    keep = []
                    for st in stmts:
                        if (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                                and st.targets[0].id not in loads and pure(st.value)):
                            removed = True
                            continue
                        keep.append(st)
                    if len(keep) != len(stmts):
                        stmts[:] = keep or [ast.Pass()]
            if not removed:
                return fn

    def check(self, fn):
        """What the lowered code may hold: names, ints, floats and booleans; never a text."""
        for node in ast.walk(fn):
            if isinstance(node, ast.Constant) and not (node.value is None or type(node.value) in (int, float, bool)):
                raise NotNative("a text in the code")
            if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.Dict, ast.Set, ast.Starred, ast.Yield, ast.Await,
                                 ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, ast.With)):
                raise NotNative(f"a `{type(node).__name__}` expression")
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and (
                    node.id.startswith("n_") or node.id in ("NONE", "NativeStop", "np", "N")):
                raise NotNative(f"a local named like the native helpers: `{node.id}`")
