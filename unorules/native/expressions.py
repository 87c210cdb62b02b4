"""The lowering of one statement's expressions (lower.py): None as NONE, truth tests of what may be
None, the random stream, bit counts, the seats' tables, tuple keys, and the sums, searches and
extremes over players hoisted into loops before the statement."""
from __future__ import annotations

import ast
import copy

from .syntax import (Rename, call_ as _call, const_ as _const, empty_ints, is_int_list, is_none, lex_beats,
                     name_ as _name, parse_stmts)
from .tables import NotNative, dims

SIDE_CALLS = {"append", "pop", "remove", "clear", "sort", "add", "copy", "insert"}
KEPT_BUILTINS = {"range", "len", "int", "float", "min", "max", "abs", "enumerate", "list", "set", "bool", "sum", "any"}
HELPERS = {"HELD": "n_held", "FACES_IN": "n_faces_in", "BOUNDED": "n_bounded", "SEAT": "n_seat", "MODULO": "n_modulo",
           "TIMES": "n_times", "PLUS": "n_plus", "MINUS": "n_minus"}
DROPPED = {"log"}
OUTCOME_ERROR = 2


class ExprLowering(ast.NodeTransformer):
    """One statement's expressions; loops it hoists go into `pre`, before the statement."""

    def __init__(self, low, pre: list):
        self.low, self.pre = low, pre
        self.guarded = 0            # inside a branch that may not run (IfExp arms, and/or's later operands)
        self.pairs = False          # lowering the value of a list of pairs

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
            if node.id in self.low.tables and node.id.isupper() and node.id not in ("N", "OTHERS"):
                self.low.emittable(node.id)
        return node

    def visit_Attribute(self, node):
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
            index = ast.Tuple(elts=[node.value.slice, node.slice], ctx=ast.Load())
            return ast.Subscript(value=node.value.value, slice=index, ctx=node.ctx)
        return node

    def _is_2d(self, e) -> bool:
        if not isinstance(e, ast.Name):
            return False
        if e.id in self.low.grids:
            return True
        if e.id in self.low.tables and e.id not in self.low.assigned:
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
        if is_int_list(node):
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
            if not is_none(right):
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
            n = self.low.keys[node.left.id]
            return lex_beats([f"{node.left.id}_{i}" for i in range(n)], [f"{right.id}_{i}" for i in range(n)], ast.Gt)
        if any(isinstance(o, (ast.Is, ast.IsNot)) for o in node.ops):
            raise NotNative("a chained identity test")
        return self.generic_visit(node)

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
        if any(isinstance(g.target, ast.Tuple) for g in node.generators) and not is_int_list(node.elt):
            raise NotNative("a list comprehension over pairs")
        self.guarded += 1                          # its parts run per element
        node = self.generic_visit(node)
        self.guarded -= 1
        return node

    def visit_List(self, node):
        """An empty list holds ints (typed so: numba cannot type `drawn_per_round`, whose appends
        read its own sum); a list of pairs is left to numba to type by what is appended."""
        if not node.elts and not self.pairs:
            return empty_ints()
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
                hand = node.args[0]                  # generator.hand_points: HAND_POINTS(hc[p], hm[p])
                if not (isinstance(hand, ast.Subscript) and isinstance(hand.value, ast.Name)
                        and not isinstance(hand.slice, (ast.Tuple, ast.Slice))):
                    raise NotNative("the points of a hand that is not a row of the hands' grid")
                return _call("n_hand_points_of", self.visit(hand.value), self.visit(hand.slice))   # no row view
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
            if name == "DIVIDE":
                raise NotNative("a division in a rule (a fraction, where native code holds whole numbers)")
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
        rename = Rename(g.target.id, var)
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
        if name == "sum":                               # a checked add: the terms are a rule's values
            init = _const(0)
            body[:] = [ast.Assign(targets=[_name(out, ast.Store())], value=_call("n_plus", _name(out), elt))]
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
                self.pre.extend(parse_stmts(f"if not {found}:\n    raise NativeStop()"))
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
                self.pre.extend(parse_stmts(f"if not {seen}:\n    raise NativeStop()"))
            return _name(out)
        else:                                           # tuple(...): a list
            init = empty_ints()
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
        keys = node.keywords
        if len(keys) != 1 or keys[0].arg != "key" or not isinstance(keys[0].value, ast.Lambda):
            raise NotNative(f"`{name}` with keywords")
        lam = node.keywords[0].value
        if len(lam.args.args) != 1 or not isinstance(lam.body, ast.Tuple) or len(node.args) != 1:
            raise NotNative(f"`{name}` by another key")
        var, out = self._fresh("v"), self._fresh("g")
        rename = Rename(lam.args.args[0].arg, var)
        parts = [ExprLowering(self.low, self.pre).visit(rename.visit(copy.deepcopy(e))) for e in lam.body.elts]
        ks = [self._fresh("k") for _ in parts]
        bs = [self._fresh("b") for _ in parts]
        better = lex_beats(ks, bs, ast.Gt if name == "max" else ast.Lt)
        self.pre.append(ast.Assign(targets=[_name(out, ast.Store())], value=_name("NONE")))
        for b in bs:
            self.pre.append(ast.Assign(targets=[_name(b, ast.Store())], value=_const(0)))
        body = [ast.Assign(targets=[_name(k, ast.Store())], value=p) for k, p in zip(ks, parts)]
        body.append(ast.If(test=ast.BoolOp(op=ast.Or(), values=[
            ast.Compare(left=_name(out), ops=[ast.Eq()], comparators=[_name("NONE")]), better]),
            body=[ast.Assign(targets=[_name(out, ast.Store())], value=_name(var))]
            + [ast.Assign(targets=[_name(b, ast.Store())], value=_name(k)) for k, b in zip(ks, bs)], orelse=[]))
        self.pre.append(ast.For(target=_name(var, ast.Store()), iter=self.visit(node.args[0]), body=body, orelse=[]))
        self.pre.extend(parse_stmts(f"if {out} == NONE:\n    raise NativeStop()"))
        return _name(out)
