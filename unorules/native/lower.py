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
    COLOR_OPTS[i].value               -> COLOR_VALUES[i]
    OUTCOME_NAMES[k], ERROR           -> their codes
    a key tuple compared with `>`     -> one local per component, compared in order
    raise ...                         -> raise NativeStop(), out of the compiled code
    try: ... except (a stall, an error) -> the body alone: the game that raises is played again by
                                         the Python reference, which ends it as stalled or in error
    return RESULT(...)                -> the game's row of ints and its rounds, written to arrays
    tracked.add(q)                    -> a mask of seats
    the helpers (HELD, FACES_IN, HAND_POINTS, CHANCE_PICK, BOUNDED, SEAT, MODULO) -> numba functions

The tables become module constants written with `repr` of ints, floats and booleans only
(tables.py). A construct this pass does not know raises NotNative with the reason, and the run
falls back to the counted Python code, saying so. The messages of rule errors are not carried:
a game that ends in an error is played again by the Python reference, which names the rule."""
from __future__ import annotations

import ast
import copy
import itertools

from .tables import NotNative, emit

SIDE_CALLS = {"append", "pop", "remove", "clear", "sort", "add", "copy", "insert"}
KEPT_BUILTINS = {"range", "len", "int", "float", "min", "max", "abs", "enumerate", "list", "set", "bool", "sum", "any"}
HELPERS = {"HELD": "n_held", "FACES_IN": "n_faces_in", "BOUNDED": "n_bounded", "SEAT": "n_seat", "MODULO": "n_modulo"}
DROPPED = {"log"}
ROW_FIELDS = ("outcome", "winner", "round_no", "drawn", "plays", "reshuffles", "decisions", "turn_decisions",
              "challenges", "challenges_won", "catches", "tracked", "rounds")
OUTCOME_ERROR = 2


def _name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _call(fn, *args):
    return ast.Call(func=_name(fn), args=list(args), keywords=[])


def _const(v):
    return ast.Constant(value=v)


def _parse_stmts(text: str) -> list:
    return ast.parse(text).body


def _parse_expr(text: str):
    return ast.parse(text, mode="eval").body


def _assigned_names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


class Lowering:
    """One generated program's play_quiet as native source. `tables`: the namespace the Python
    program is loaded with (generated.tables), read for what each global name holds."""

    def __init__(self, source: str, tables: dict, players: int):
        self.tree = ast.parse(source)
        self.tables = tables
        self.players = players
        self.fresh = itertools.count(1)
        self.globals_used: set[str] = set()
        self.arrays: set[str] = set()          # locals held as int64 arrays (1-D)
        self.grids: set[str] = set()           # locals held as 2-D int64 arrays
        self.maybe_none: set[str] = set()
        self.keys: dict[str, int] = {}         # tuple locals kept as one local per component: name -> length
        self.key_flags: set[str] = set()       # of those, the ones that may be None (a flag says which)
        self.assigned: set[str] = set()        # every name the function binds
        self._checked: set[str] = set()        # tables found fit to be constants
        self.pair_lists: set[str] = set()      # lists whose appends are tuples

    # ---- the whole function ------------------------------------------------------------------
    def functions(self) -> dict[str, ast.FunctionDef]:
        return {n.name: n for n in self.tree.body if isinstance(n, ast.FunctionDef)}

    def lower(self) -> tuple[list[ast.FunctionDef], set[str]]:
        """The lowered helper functions and `play_game`, and the global names they read."""
        fns = self.functions()
        if "play_quiet" not in fns:
            raise NotNative("the generated code has no quiet variant")
        play = fns["play_quiet"]
        self.assigned = _assigned_names(play) | {a.arg for a in play.args.args if not a.arg.isupper()}
        self.analyse(play)
        self.pair_lists = {n.func.value.id for n in ast.walk(play) if isinstance(n, ast.Call)
                           and isinstance(n.func, ast.Attribute) and n.func.attr == "append"
                           and isinstance(n.func.value, ast.Name) and n.args and isinstance(n.args[0], ast.Tuple)}
        out = []
        for name in ("shuffle", "reshuffle"):
            if name in fns:
                f = copy.deepcopy(fns[name])
                f.body = self.block(f.body)
                out.append(f)
        body = _parse_stmts("tracked = 0") + self.block(play.body)
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in ("seed", "AG", "row", "rounds")],
                             vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fn = ast.FunctionDef(name="play_game", args=args, body=body, decorator_list=[], returns=None, type_params=[])
        out.append(fn)
        out = [self.define_first(self.prune_dead_stores(f)) for f in out]
        for f in out:
            self.check(f)
        return out, self.globals_used

    def emittable(self, name: str):
        """Raises NotNative, with the reason, where the table cannot be a native constant."""
        if name not in self._checked:
            emit(name, self.tables[name])
            self._checked.add(name)

    # ---- what the names hold -----------------------------------------------------------------
    def analyse(self, fn):
        """Which locals are arrays, grids, tuple keys, and which may hold None."""
        assigns = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    assigns.extend(self._pairs(t, node.value))
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
                assigns.append((node.target.id, None))
        by_name: dict[str, list] = {}
        for name, value in assigns:
            by_name.setdefault(name, []).append(value)
        for name, values in by_name.items():        # `[k] * n` makes an array, `[[k] * a for _ in range(b)]` a grid
            if any(v is not None and self._is_int_list(v) for v in values):
                self.arrays.add(name)
            if any(v is not None and self._is_grid(v) for v in values):
                self.grids.add(name)
        grown = {n.func.value.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("append", "pop", "remove", "clear", "sort", "insert")
                 and isinstance(n.func.value, ast.Name)}
        if (self.arrays | self.grids) & grown:
            raise NotNative(f"a list of numbers that grows: `{sorted((self.arrays | self.grids) & grown)[0]}`")
        self.arrays -= self.grids
        if "AG" in by_name:                    # `AG = list(AG)`: the seats' agents move with swapped seats
            self.arrays.add("AG")
        # tuple keys: names only ever assigned tuple literals, and names assigned those or None
        ordered = {side.id for n in ast.walk(fn) if isinstance(n, ast.Compare) and len(n.ops) == 1
                   and isinstance(n.ops[0], (ast.Gt, ast.Lt, ast.GtE, ast.LtE))
                   for side in (n.left, n.comparators[0]) if isinstance(side, ast.Name)}
        for name, values in by_name.items():
            if name in ordered and values and all(isinstance(v, ast.Tuple) and v.elts for v in values) \
                    and len({len(v.elts) for v in values}) == 1:
                self.keys[name] = len(values[0].elts)
        for name, values in by_name.items():
            if name in self.keys or not values or name not in ordered:
                continue
            if all(v is not None and (self._is_none(v) or (isinstance(v, ast.Name) and v.id in self.keys)) for v in values) \
                    and any(isinstance(v, ast.Name) for v in values):
                sizes = {self.keys[v.id] for v in values if isinstance(v, ast.Name)}
                if len(sizes) == 1:
                    self.keys[name] = sizes.pop()
                    self.key_flags.add(name)
        # may be None: assigned None, a None-holding table's entry, or another such name (to a fixpoint)
        changed = True
        while changed:
            changed = False
            for name, values in by_name.items():
                if name in self.maybe_none or name in self.keys:
                    continue
                if any(v is None or self.may_be_none(v) for v in values if v is not None) or \
                        any(v is None and self._loops_over_none(name, fn) for v in values):
                    self.maybe_none.add(name)
                    changed = True

    def _loops_over_none(self, name, fn) -> bool:
        for node in ast.walk(fn):
            if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) \
                    and node.target.id == name and self.may_be_none(node.iter, element=True):
                return True
        return False

    def _pairs(self, target, value):
        if isinstance(target, ast.Name):
            return [(target.id, value)]
        if isinstance(target, ast.Tuple):
            if isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts):
                return [p for t, v in zip(target.elts, value.elts) for p in self._pairs(t, v)]
            return [p for t in target.elts for p in self._pairs(t, None)]
        return []

    @staticmethod
    def _is_none(v) -> bool:
        return isinstance(v, ast.Constant) and v.value is None

    @staticmethod
    def _is_int_list(v) -> bool:
        """`[k] * n` with an int k."""
        return (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult) and isinstance(v.left, ast.List)
                and len(v.left.elts) == 1 and isinstance(v.left.elts[0], ast.Constant)
                and type(v.left.elts[0].value) is int)

    def _is_grid(self, v) -> bool:
        """`[[k] * a for _ in range(b)]`."""
        return (isinstance(v, ast.ListComp) and self._is_int_list(v.elt) and len(v.generators) == 1
                and isinstance(v.generators[0].iter, ast.Call) and isinstance(v.generators[0].iter.func, ast.Name)
                and v.generators[0].iter.func.id == "range" and not v.generators[0].ifs)

    def table_has_none(self, name: str) -> bool:
        def walk(v):
            if v is None:
                return True
            if isinstance(v, (list, tuple)):
                return any(walk(x) for x in v)
            return False
        return name in self.tables and walk(self.tables[name])

    def may_be_none(self, e, element: bool = False) -> bool:
        """Whether the expression (or, with `element`, an element of it) may be None."""
        if e is None:
            return False
        if self._is_none(e):
            return not element
        if isinstance(e, ast.Name):
            if element:
                return self.table_has_none(e.id) or e.id in {"VC", "colors"} and self._any_none_table()
            return e.id in self.maybe_none
        if isinstance(e, ast.Subscript):
            base = e.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name):
                return self.table_has_none(base.id) or base.id in self.maybe_none_containers()
            return False
        if isinstance(e, ast.IfExp):
            return self.may_be_none(e.body, element) or self.may_be_none(e.orelse, element)
        if isinstance(e, ast.BoolOp):
            return any(self.may_be_none(v, element) for v in e.values)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("next", "MOST", "FEWEST"):
            return True
        if isinstance(e, ast.Tuple) and element:
            return any(self.may_be_none(v) for v in e.elts)
        return False

    def _any_none_table(self) -> bool:
        return any(self.table_has_none(t) for t in ("VCOLOR", "VCOLOR_CALL"))

    def maybe_none_containers(self) -> set:
        """Locals bound to a None-holding table or its rows (`colors = VC[c]`, `NO, VC, VK = ...`)."""
        if not hasattr(self, "_containers"):
            found = set()
            changed = True
            fn = self.functions()["play_quiet"]
            while changed:
                changed = False
                for node in ast.walk(fn):
                    if not isinstance(node, ast.Assign):
                        continue
                    for t in node.targets:
                        for name, v in self._pairs(t, node.value):
                            if name in found or v is None:
                                continue
                            base = v
                            while isinstance(base, ast.Subscript):
                                base = base.value
                            if isinstance(base, ast.Name) and (self.table_has_none(base.id) or base.id in found) \
                                    and not isinstance(v, ast.Subscript) or (
                                    isinstance(v, ast.Subscript) and isinstance(base, ast.Name)
                                    and (self.table_has_none(base.id) or base.id in found)
                                    and self._depth(v) < self._table_depth(base.id, found)):
                                found.add(name)
                                changed = True
            self._containers = found
        return self._containers

    @staticmethod
    def _depth(v) -> int:
        d = 0
        while isinstance(v, ast.Subscript):
            d, v = d + 1, v.value
        return d

    def _table_depth(self, name, found) -> int:
        value = self.tables.get(name)
        d = 0
        while isinstance(value, (list, tuple)) and value:
            d += 1
            value = value[0]
        return d if name in self.tables else 2

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
            if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "add"
                    and isinstance(v.func.value, ast.Name) and v.func.value.id == "tracked"):
                arg = expr.visit(v.args[0])
                return pre + [ast.AugAssign(target=_name("tracked", ast.Store()), op=ast.BitOr(),
                                            value=ast.BinOp(left=_const(1), op=ast.LShift(), right=arg))]
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
            test = expr.test(s.test)
            return pre + [ast.If(test=test, body=self.block(s.body), orelse=self.block(s.orelse) if s.orelse else [])]
        if isinstance(s, ast.While):
            test = expr.test(s.test)
            if pre:
                raise NotNative("a loop whose test gathers values")
            return [ast.While(test=test, body=self.block(s.body), orelse=self.block(s.orelse) if s.orelse else [])]
        if isinstance(s, ast.For):
            if s.orelse:
                raise NotNative("a loop with an else")
            it = expr.visit(s.iter)
            target = expr.visit(s.target)
            return pre + [ast.For(target=target, iter=it, body=self.block(s.body), orelse=[])]
        if isinstance(s, (ast.Break, ast.Continue, ast.Pass)):
            return [s]
        if isinstance(s, ast.Delete):
            raise NotNative("deleting from a list")
        raise NotNative(f"a `{type(s).__name__}` statement")

    def assign(self, s, expr, pre) -> list:
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
        if isinstance(target, ast.Name) and target.id in self.grids and self._is_grid(value):
            shape = ast.Tuple(elts=[expr.visit(value.generators[0].iter.args[-1]), expr.visit(value.elt.right)],
                              ctx=ast.Load())
            return pre + [ast.Assign(targets=[target], value=_call("n_full2", shape, _const(value.elt.left.elts[0].value)))]
        expr.pairs = isinstance(target, ast.Name) and target.id in self.pair_lists
        lowered = expr.visit(value)
        expr.pairs = False
        return pre + [ast.Assign(targets=[expr.visit(target)], value=lowered)]

    def assign_key(self, name, value, expr) -> list:
        n = self.keys[name]
        if self._is_none(value):
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
            return _parse_stmts("raise NativeStop()")
        raise NotNative("an exception the lowering does not know")

    def result(self, call) -> list:
        """RESULT(outcome, winner, error, round_no, scores, turns_per_round, drawn_per_round, drawn,
        plays, reshuffles, decisions, turn_decisions, challenges, challenges_won, catches, tracked,
        log[, seats]) -> the row and the rounds."""
        a = [ast.unparse(x) for x in call.args]
        if len(a) not in (17, 18) or a[4] != "scores" or a[5] != "turns_per_round":
            raise NotNative("a result of another shape")
        fields = {"outcome": a[0], "winner": a[1], "round_no": a[3], "drawn": a[7], "plays": a[8],
                  "reshuffles": a[9], "decisions": a[10], "turn_decisions": a[11], "challenges": a[12],
                  "challenges_won": a[13], "catches": a[14], "tracked": "tracked", "rounds": "len(turns_per_round)"}
        fields["winner"] = f"-1 if {a[1]} == NONE else {a[1]}"
        lines = [f"row[{i}] = {fields[f]}" for i, f in enumerate(ROW_FIELDS)]
        base = len(ROW_FIELDS)
        lines.append("for q in range(N):")
        lines.append(f"    row[{base} + q] = scores[q]")
        lines.append(f"    row[{base} + N + q] = {'seats[q]' if len(a) == 18 else 'q'}")
        lines.append("if len(turns_per_round) > rounds.shape[0]:")
        lines.append("    return -1")
        lines.append("for r in range(len(turns_per_round)):")
        lines.append("    rounds[r, 0] = turns_per_round[r]")
        lines.append("    rounds[r, 1] = drawn_per_round[r]")
        lines.append("return len(turns_per_round)")
        return _parse_stmts("\n".join(lines))

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
                                and st.targets[0].id not in loads and _pure(st.value)):
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
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id.isupper() \
                    and node.id not in ("N", "NONE") and node.id in self.tables:
                self.globals_used.add(node.id)


def _pure(e) -> bool:
    for n in ast.walk(e):
        if isinstance(n, ast.Call):
            f = n.func
            if not (isinstance(f, ast.Name) and f.id in ("list", "set", "len", "int", "range", "full", "full2")):
                return False
    return True


class ExprLowering(ast.NodeTransformer):
    """One statement's expressions; loops it hoists go into `pre`, before the statement."""

    def __init__(self, low: Lowering, pre: list):
        self.low, self.pre = low, pre
        self.guarded = 0            # inside a branch that may not run (IfExp arms, and/or's later operands)
        self.pairs = False          # lowering the value of a list of pairs

    def test(self, e):
        return self.truth(e)

    def truth(self, e):
        """A truth test of `e`: NONE is false, as None is."""
        if isinstance(e, ast.BoolOp):
            values = [self.truth(e.values[0])]
            self.guarded += 1
            values += [self.truth(v) for v in e.values[1:]]
            self.guarded -= 1
            return ast.BoolOp(op=e.op, values=values)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return ast.UnaryOp(op=ast.Not(), operand=self.truth(e.operand))
        lowered = self.visit(e)
        if self.low.may_be_none(e):
            return _call("n_truthy", lowered)
        return lowered

    # names and constants
    def visit_Constant(self, node):
        if node.value is None:
            return _name("NONE")
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            if node.id == "ERROR":
                return _const(OUTCOME_ERROR)
            if node.id in self.low.keys:
                raise NotNative("a key tuple used as a value")
            if node.id in DROPPED:
                raise NotNative(f"`{node.id}` in the quiet code")
            if node.id == "COLOR_OPTS":
                return _name("COLOR_VALUES")
            if node.id in self.low.tables and node.id.isupper() and node.id not in ("N", "COLOR_OPTS", "OTHERS"):
                self.low.emittable(node.id)
        return node

    def visit_Attribute(self, node):
        if node.attr == "value":                  # COLOR_OPTS[i].value
            return self.visit(node.value)
        if node.attr == "random" and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id == "RANDOM":
            return _call("n_rng", self.visit(node.value.args[0]))
        if node.attr in SIDE_CALLS:
            node.value = self.visit(node.value)
            return node
        raise NotNative(f"the attribute `.{node.attr}`")

    def visit_Subscript(self, node):
        v = node.value
        if isinstance(v, ast.Name) and v.id == "OUTCOME_NAMES" and isinstance(node.slice, ast.Constant):
            return _const(node.slice.value)
        if isinstance(v, ast.Name) and v.id == "OTHERS":
            return ast.Subscript(value=_name("OTHERS"), slice=self._direction(node.slice), ctx=ast.Load())
        node.value = self.visit(node.value)
        node.slice = self.visit(node.slice)
        # T[i][j] of a 2-D table or grid -> T[i, j]: one index, no row view made between
        if isinstance(node.value, ast.Subscript) and not isinstance(node.value.slice, (ast.Slice, ast.Tuple)) \
                and not isinstance(node.slice, (ast.Slice, ast.Tuple)) and self._is_2d(node.value.value):
            return ast.Subscript(value=node.value.value, slice=ast.Tuple(elts=[node.value.slice, node.slice],
                                                                          ctx=ast.Load()), ctx=node.ctx)
        return node

    def _is_2d(self, e) -> bool:
        if not isinstance(e, ast.Name):
            return False
        if e.id in self.low.grids:
            return True
        if e.id in self.low.tables and e.id not in self.low.assigned:
            from .tables import dims
            return dims(self.low.tables[e.id]) == 2
        return False

    def _direction(self, d):
        return ast.BinOp(left=ast.BinOp(left=self.visit(d), op=ast.Add(), right=_const(1)), op=ast.RShift(),
                         right=_const(1))

    def visit_BinOp(self, node):
        # (p,) + OTHERS[d][p] and OTHERS[d][p] + (p,): the seats in turn order from p, or after p
        for single, others, table in ((node.left, node.right, "CYCLE"), (node.right, node.left, "CYCLE_END")):
            if isinstance(node.op, ast.Add) and isinstance(single, ast.Tuple) and len(single.elts) == 1 \
                    and self._is_others(others):
                if ast.dump(single.elts[0]) != ast.dump(others.slice):
                    raise NotNative("a tuple of seats joined to another seat's")
                d = others.value.slice
                return ast.Subscript(value=ast.Subscript(value=_name(table), slice=self._direction(d), ctx=ast.Load()),
                                     slice=self.visit(others.slice), ctx=ast.Load())
        if isinstance(node.op, ast.Add) and (isinstance(node.left, ast.Tuple) or isinstance(node.right, ast.Tuple)):
            raise NotNative("joined tuples")
        if Lowering._is_int_list(node):
            return _call("n_full", self.visit(node.right), _const(node.left.elts[0].value))
        if isinstance(node.op, ast.Div):
            raise NotNative("a division")
        return self.generic_visit(node)

    @staticmethod
    def _is_others(e) -> bool:
        return (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Subscript)
                and isinstance(e.value.value, ast.Name) and e.value.value.id == "OTHERS")

    def visit_Compare(self, node):
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            left, right = node.left, node.comparators[0]
            if not Lowering._is_none(right):
                raise NotNative("an identity test of something other than None")
            if isinstance(left, ast.Name) and left.id in self.low.key_flags:
                flag = _name(f"{left.id}_set")
                return ast.UnaryOp(op=ast.Not(), operand=flag) if isinstance(node.ops[0], ast.Is) else flag
            op = ast.Eq() if isinstance(node.ops[0], ast.Is) else ast.NotEq()
            return ast.Compare(left=self.visit(left), ops=[op], comparators=[_name("NONE")])
        if len(node.ops) == 1 and isinstance(node.left, ast.Name) and node.left.id in self.low.keys:
            right = node.comparators[0]
            if not (isinstance(right, ast.Name) and right.id in self.low.keys) or not isinstance(node.ops[0], ast.Gt):
                raise NotNative("a key tuple compared another way")
            return self._lex_gt(node.left.id, right.id, 0)
        if any(isinstance(o, (ast.Is, ast.IsNot)) for o in node.ops):
            raise NotNative("a chained identity test")
        return self.generic_visit(node)

    def _lex_gt(self, a, b, i):
        n = self.low.keys[a]
        gt = ast.Compare(left=_name(f"{a}_{i}"), ops=[ast.Gt()], comparators=[_name(f"{b}_{i}")])
        if i == n - 1:
            return gt
        eq = ast.Compare(left=_name(f"{a}_{i}"), ops=[ast.Eq()], comparators=[_name(f"{b}_{i}")])
        return ast.BoolOp(op=ast.Or(), values=[gt, ast.BoolOp(op=ast.And(), values=[eq, self._lex_gt(a, b, i + 1)])])

    def visit_BoolOp(self, node):
        if any(self.low.may_be_none(v) for v in node.values):
            # a value of `a or b` where a may be None: `a if truthy(a) else b` (a is a name or an entry)
            if len(node.values) != 2 or not isinstance(node.values[0], (ast.Name, ast.Subscript)):
                raise NotNative("and/or over values that may be None")
            a = self.visit(node.values[0])
            self.guarded += 1
            b = self.visit(node.values[1])
            self.guarded -= 1
            t = _call("n_truthy", copy.deepcopy(a))
            if isinstance(node.op, ast.Or):
                return ast.IfExp(test=t, body=a, orelse=b)
            return ast.IfExp(test=t, body=b, orelse=a)
        first = self.visit(node.values[0])
        self.guarded += 1
        rest = [self.visit(v) for v in node.values[1:]]
        self.guarded -= 1
        return ast.BoolOp(op=node.op, values=[first] + rest)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return ast.UnaryOp(op=ast.Not(), operand=self.truth(node.operand))
        return self.generic_visit(node)

    def visit_IfExp(self, node):
        test = self.truth(node.test)
        self.guarded += 1
        body, orelse = self.visit(node.body), self.visit(node.orelse)
        self.guarded -= 1
        return ast.IfExp(test=test, body=body, orelse=orelse)

    def visit_ListComp(self, node):
        if Lowering._is_int_list(node.elt) or any(isinstance(g.target, ast.Tuple) for g in node.generators):
            if not Lowering._is_int_list(node.elt):
                raise NotNative("a list comprehension over pairs")
        self.guarded += 1                          # its parts run per element
        node = self.generic_visit(node)
        self.guarded -= 1
        return node

    def visit_List(self, node):
        """An empty list holds ints (typed so: numba cannot type `drawn_per_round`, whose appends
        read its own sum); a list of pairs is left to numba to type by what is appended."""
        if not node.elts and not self.pairs:
            return ast.Subscript(value=ast.List(elts=[_const(0)], ctx=ast.Load()),
                                 slice=ast.Slice(lower=None, upper=_const(0), step=None), ctx=ast.Load())
        return self.generic_visit(node)

    def visit_Tuple(self, node):
        return self.generic_visit(node)

    def visit_Lambda(self, node):
        raise NotNative("a function made inside a rule")

    def visit_GeneratorExp(self, node):
        raise NotNative("a generator expression outside sum/any/next/min/max/tuple")

    # calls
    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Name):
            name = f.id
            if name in ("rnd", "arnd") and not node.args:
                return _call("n_rand", _name(name))
            if name in ("sum", "any", "next", "min", "max", "tuple") and node.args \
                    and isinstance(node.args[0], ast.GeneratorExp):
                return self.hoist(name, node)
            if name in ("MOST", "FEWEST") and len(node.args) == 1 and isinstance(node.args[0], ast.ListComp) \
                    and isinstance(node.args[0].elt, ast.Tuple) and len(node.args[0].elt.elts) == 2:
                return self.hoist_extreme(name == "MOST", node.args[0])
            if name in ("min", "max") and node.keywords:
                return self.hoist_key(name, node)
            if node.keywords:
                raise NotNative(f"`{name}` with keywords")
            if name == "HAND_POINTS":
                return _call("n_hand_points", self.visit(node.args[0]))
            if name == "CHANCE_PICK":
                weights = node.args[0]
                if not isinstance(weights, ast.List):
                    raise NotNative("chance weights not written out")
                tup = ast.Tuple(elts=[_call("float", self.visit(w)) for w in weights.elts], ctx=ast.Load())
                return _call("n_chance_pick", tup, self.visit(node.args[1]))
            if name in HELPERS:
                args = [self.visit(a) for a in node.args]
                return _call(HELPERS[name], *(args[:1] if name in ("BOUNDED", "SEAT", "FACES_IN") else args))
            if name == "list" and len(node.args) == 1 and isinstance(node.args[0], ast.Name) \
                    and node.args[0].id in self.low.arrays | self.low.grids | {"AG"}:
                return ast.Call(func=ast.Attribute(value=self.visit(node.args[0]), attr="copy", ctx=ast.Load()),
                                args=[], keywords=[])
            if name in ("shuffle", "reshuffle") or name in KEPT_BUILTINS:
                node.args = [self.visit(a) for a in node.args]
                return node
            raise NotNative(f"the call `{name}`")
        if isinstance(f, ast.Attribute):
            if f.attr == "bit_count":
                return _call("n_popcount", self.visit(f.value))
            if f.attr == "bit_length":
                return _call("n_bitlen", self.visit(f.value))
            if f.attr in SIDE_CALLS:
                f.value = self.visit(f.value)
                node.args = [self.visit(a) for a in node.args]
                return node
            if f.attr == "random":
                raise NotNative("a random stream used as a value")
        raise NotNative(f"the call `{ast.unparse(f)}`")

    def _fresh(self, stem: str) -> str:
        return f"{stem}{next(self.low.fresh)}_"

    def _loop(self, gen, body: list):
        """(for <fresh> in <iter>: [if <conds>:] body, the renaming of the comprehension's name)."""
        if len(gen.generators) != 1 or not isinstance(gen.generators[0].target, ast.Name):
            raise NotNative("a nested comprehension")
        g = gen.generators[0]
        var = self._fresh("v")
        rename = _Rename(g.target.id, var)
        it = self.visit(g.iter)
        conds = [rename.visit(copy.deepcopy(c)) for c in g.ifs]
        inner = body
        if conds:
            sub = ExprLowering(self.low, self.pre)
            test = sub.truth(conds[0] if len(conds) == 1 else ast.BoolOp(op=ast.And(), values=conds))
            inner = [ast.If(test=test, body=body, orelse=[])]
        return [ast.For(target=_name(var, ast.Store()), iter=it, body=inner, orelse=[])], rename

    def hoist(self, name, node):
        if self.guarded:
            raise NotNative(f"`{name}` over values inside a condition")
        gen = node.args[0]
        out = self._fresh("g")
        body: list = []                                 # the loop's body, filled below
        loop, rename = self._loop(gen, body)
        elt = ExprLowering(self.low, self.pre).visit(rename.visit(copy.deepcopy(gen.elt)))
        if name == "sum":
            init = _const(0)
            body[:] = [ast.AugAssign(target=_name(out, ast.Store()), op=ast.Add(), value=elt)]
        elif name == "any":
            init = _const(False)
            body[:] = [ast.If(test=ExprLowering(self.low, self.pre).truth(rename.visit(copy.deepcopy(gen.elt))),
                              body=[ast.Assign(targets=[_name(out, ast.Store())], value=_const(True)), ast.Break()],
                              orelse=[])]
        elif name == "next":
            init = _name("NONE")
            found = self._fresh("f")
            self.pre.append(ast.Assign(targets=[_name(found, ast.Store())], value=_const(False)))
            body[:] = [ast.Assign(targets=[_name(out, ast.Store())], value=elt),
                       ast.Assign(targets=[_name(found, ast.Store())], value=_const(True)), ast.Break()]
            if len(node.args) > 1:
                init = self.visit(node.args[1])
            self.pre.append(ast.Assign(targets=[_name(out, ast.Store())], value=init))
            self.pre.extend(loop)
            if len(node.args) == 1:
                self.pre.extend(_parse_stmts(f"if not {found}:\n    raise NativeStop()"))
            return _name(out)
        elif name in ("min", "max"):
            default = [k.value for k in node.keywords if k.arg == "default"]
            if [k for k in node.keywords if k.arg != "default"]:
                raise NotNative(f"`{name}` with keywords")
            init = self.visit(default[0]) if default else _const(0)
            seen = self._fresh("s")
            self.pre.append(ast.Assign(targets=[_name(seen, ast.Store())], value=_const(False)))
            tmp = self._fresh("e")
            op = ast.Lt() if name == "min" else ast.Gt()
            body[:] = [ast.Assign(targets=[_name(tmp, ast.Store())], value=elt),
                       ast.If(test=ast.BoolOp(op=ast.Or(), values=[
                           ast.UnaryOp(op=ast.Not(), operand=_name(seen)),
                           ast.Compare(left=_name(tmp), ops=[op], comparators=[_name(out)])]),
                           body=[ast.Assign(targets=[_name(out, ast.Store())], value=_name(tmp)),
                                 ast.Assign(targets=[_name(seen, ast.Store())], value=_const(True))], orelse=[])]
            self.pre.append(ast.Assign(targets=[_name(out, ast.Store())], value=init))
            self.pre.extend(loop)
            if not default:                             # max() of nothing: a ValueError in Python
                self.pre.extend(_parse_stmts(f"if not {seen}:\n    raise NativeStop()"))
            return _name(out)
        else:                                           # tuple(...): a list
            init = ast.Subscript(value=ast.List(elts=[_const(0)], ctx=ast.Load()),
                                 slice=ast.Slice(lower=None, upper=_const(0), step=None), ctx=ast.Load())
            body[:] = [ast.Expr(value=ast.Call(func=ast.Attribute(value=_name(out), attr="append", ctx=ast.Load()),
                                               args=[elt], keywords=[]))]
        self.pre.append(ast.Assign(targets=[_name(out, ast.Store())], value=init))
        self.pre.extend(loop)
        return _name(out)

    def hoist_extreme(self, most: bool, comp):
        """MOST / FEWEST([(q, v) for q in players]) (generated.extreme): the first player with the
        greatest (least) value, NONE if there is none."""
        if self.guarded:
            raise NotNative("most / fewest inside a condition")
        out, best, value = self._fresh("g"), self._fresh("b"), self._fresh("e")
        body: list = []
        loop, rename = self._loop(comp, body)
        who, of = (ExprLowering(self.low, self.pre).visit(rename.visit(copy.deepcopy(e))) for e in comp.elt.elts)
        op = ast.Gt() if most else ast.Lt()
        body[:] = [ast.Assign(targets=[_name(value, ast.Store())], value=of),
                   ast.If(test=ast.BoolOp(op=ast.Or(), values=[
                       ast.Compare(left=_name(out), ops=[ast.Eq()], comparators=[_name("NONE")]),
                       ast.Compare(left=_name(value), ops=[op], comparators=[_name(best)])]),
                       body=[ast.Assign(targets=[_name(out, ast.Store())], value=who),
                             ast.Assign(targets=[_name(best, ast.Store())], value=_name(value))], orelse=[])]
        self.pre += [ast.Assign(targets=[_name(out, ast.Store())], value=_name("NONE")),
                     ast.Assign(targets=[_name(best, ast.Store())], value=_const(0))] + loop
        return _name(out)

    def hoist_key(self, name, node):
        """max(range(N), key=lambda q: (a, b)): the first element with the greatest key."""
        if self.guarded:
            raise NotNative(f"`{name}` over values inside a condition")
        if len(node.keywords) != 1 or node.keywords[0].arg != "key" or not isinstance(node.keywords[0].value, ast.Lambda):
            raise NotNative(f"`{name}` with keywords")
        lam = node.keywords[0].value
        if len(lam.args.args) != 1 or not isinstance(lam.body, ast.Tuple) or len(node.args) != 1:
            raise NotNative(f"`{name}` by another key")
        var, out = self._fresh("v"), self._fresh("g")
        rename = _Rename(lam.args.args[0].arg, var)
        parts = [ExprLowering(self.low, self.pre).visit(rename.visit(copy.deepcopy(e))) for e in lam.body.elts]
        ks = [self._fresh("k") for _ in parts]
        bs = [self._fresh("b") for _ in parts]
        op = ast.Gt if name == "max" else ast.Lt

        def better(i):
            c = ast.Compare(left=_name(ks[i]), ops=[op()], comparators=[_name(bs[i])])
            if i == len(parts) - 1:
                return c
            eq = ast.Compare(left=_name(ks[i]), ops=[ast.Eq()], comparators=[_name(bs[i])])
            return ast.BoolOp(op=ast.Or(), values=[c, ast.BoolOp(op=ast.And(), values=[eq, better(i + 1)])])
        self.pre.append(ast.Assign(targets=[_name(out, ast.Store())], value=_name("NONE")))
        for b in bs:
            self.pre.append(ast.Assign(targets=[_name(b, ast.Store())], value=_const(0)))
        body = [ast.Assign(targets=[_name(k, ast.Store())], value=p) for k, p in zip(ks, parts)]
        body.append(ast.If(test=ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=_name(out), ops=[ast.Eq()], comparators=[_name("NONE")]), better(0)]),
            body=[ast.Assign(targets=[_name(out, ast.Store())], value=_name(var))]
            + [ast.Assign(targets=[_name(b, ast.Store())], value=_name(k)) for k, b in zip(ks, bs)], orelse=[]))
        self.pre.append(ast.For(target=_name(var, ast.Store()), iter=self.visit(node.args[0]), body=body, orelse=[]))
        self.pre.extend(_parse_stmts(f"if {out} == NONE:\n    raise NativeStop()"))
        return _name(out)


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old and self.new:
            return ast.Name(id=self.new, ctx=node.ctx)
        return node
