"""A pile's top card kept in a local of play_game (`discard_top_`), where every turn read it from
the pile's array (`discard[n_cell(discard[0], -1)]`). The card a turn plays is pushed, and the
next turn's match of a card read it back through memory: a store and a load on the longest chain
of a turn (rlcard: +2.5 to 3.9% games/s, the same games).

The local is written after every statement that may change the pile: after a push, the pushed
card; after anything else that changes it (a pop, a reset, a call handed the pile), the pile's top
read again (after an `if`'s or a loop's own test: at the top of its branches and after the loop).
A read of the top becomes `n_top(discard_top_)`, which raises IndexError on an empty pile, as the
read it replaces does; in a statement that changes the pile itself, the read stays as it was.

A function of the module handed the pile need not be followed by a read where it keeps the top
card: it pops it (`t = n_stack_pop(s)`), may change the rest, and puts it back as the pile's
only card (`n_stack_set1(s, t)`), or leaves the pile untouched (the reshuffle every rulebook has:
keep the top card, shuffle the rest into the draw pile). `keeps_top` checks that shape, statement
by statement; a function of any other shape is followed by a read.

A pile used otherwise (bound to another name, in a tuple, handed to a function that may return
it) keeps its reads: as right, only slower. A pile whose top is read only in statements that change
it (the draw pile's swap-remove: `pile[n_cell(pile[0], jx)] = pile[n_cell(pile[0], -1)]`) gets no
local: it would be written after every change and never read (rlcard +1.2% without the draw pile's,
A/B against a control, bench/native_ab.py)."""
from __future__ import annotations

import ast
import copy

from .syntax import call_, name_, parse_stmts

SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return, ast.Raise)
LEAVES = (ast.Return, ast.Raise)
# runtime.py's helpers that take a stack and return no array
STACK_HELPERS = {"n_stack_pop", "n_stack_has", "n_stack_remove", "n_stack_pop_at", "n_stack_copy", "n_stack_prepend",
                 "n_stack_set1", "n_stack_under_top", "n_stack_load", "n_copy1", "len"}
READ_ONLY = {"len", "n_stack_has"}


class _Refused(Exception):
    pass


def _is_top_read(node, s: str) -> bool:
    """s[n_cell(s[0], -1)]"""
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == s
            and isinstance(node.ctx, ast.Load) and isinstance(node.slice, ast.Call)
            and isinstance(node.slice.func, ast.Name) and node.slice.func.id == "n_cell" and len(node.slice.args) == 2
            and ast.dump(node.slice.args[0]) == ast.dump(_length(s))
            and ast.dump(node.slice.args[1]) == ast.dump(ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1))))


def _length(s: str):
    return ast.Subscript(value=name_(s), slice=ast.Constant(0), ctx=ast.Load())


def _is_push(st, s: str) -> bool:
    """s[n_pushed(s[0], len(s))] = x: a store above the top (its length is not yet changed)."""
    if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
        return False
    t = st.targets[0]
    return (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == s
            and isinstance(t.slice, ast.Call) and isinstance(t.slice.func, ast.Name) and t.slice.func.id == "n_pushed"
            and len(t.slice.args) == 2 and ast.dump(t.slice.args[0]) == ast.dump(_length(s))
            and not any(isinstance(n, ast.Name) and n.id == s for n in ast.walk(st.value)))


def _is_grown(st, s: str) -> bool:
    """s[0] += 1"""
    return (isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) and ast.dump(st.target) == ast.dump(
        ast.Subscript(value=name_(s), slice=ast.Constant(0), ctx=ast.Store())) and isinstance(st.value, ast.Constant)
        and st.value.value == 1)


def _calls_handed(node, s: str, above: dict) -> list:
    """The calls the name s is handed to; _Refused where s is read otherwise than as s[...] or a
    call's argument (bound to a name, in a tuple: another name could change the pile)."""
    calls = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == s and isinstance(n.ctx, ast.Load):
            up = above.get(id(n))
            if isinstance(up, ast.Call) and any(a is n for a in up.args) and isinstance(up.func, ast.Name):
                calls.append(up)
            elif not (isinstance(up, ast.Subscript) and up.value is n):
                raise _Refused()
    return calls


def _only_indexed(node, s: str) -> bool:
    """Every mention of the name s in node reads a cell of it (s[...]): it is not handed on."""
    up = {id(c): p for p in ast.walk(node) for c in ast.iter_child_nodes(p)}
    return all(isinstance(up.get(id(n)), ast.Subscript) and up[id(n)].value is n and isinstance(n.ctx, ast.Load)
               and isinstance(up[id(n)].ctx, ast.Load)
               for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == s)


def keeps_top(f: ast.FunctionDef, position: int) -> bool:
    """Whether f leaves the top card of the stack it is handed at `position` as it found it
    (module docstring): straight-line code and early returns; the stack untouched, or popped into
    a name nothing binds again, then changed by runtime.py's stack helpers only, then set back to
    that one card, before any return."""
    if position >= len(f.args.args):
        return False
    s = f.args.args[position].arg
    state, held = "untouched", None

    def mentions(node) -> bool:
        return any(isinstance(n, ast.Name) and n.id == s for n in ast.walk(node))

    for st in f.body:
        if held is not None and any(isinstance(n, ast.Name) and n.id == held and isinstance(n.ctx, ast.Store)
                                    for n in ast.walk(st)):
            return False
        if isinstance(st, ast.If) and not st.orelse and len(st.body) == 1 and isinstance(st.body[0], ast.Return):
            if state not in ("untouched", "restored") or not _only_indexed(st, s):
                return False
        elif isinstance(st, ast.Return):
            if state not in ("untouched", "restored") or not _only_indexed(st, s):
                return False
        elif state == "untouched" and isinstance(st, ast.Assign) and len(st.targets) == 1 \
                and isinstance(st.targets[0], ast.Name) and ast.dump(st.value) == ast.dump(call_("n_stack_pop", name_(s))):
            state, held = "popped", st.targets[0].id
        elif state == "popped" and isinstance(st, ast.Expr) \
                and ast.dump(st.value) == ast.dump(call_("n_stack_set1", name_(s), name_(held))):
            state = "restored"
        elif state == "popped" and isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) \
                and isinstance(st.value.func, ast.Name) and st.value.func.id in STACK_HELPERS:
            pass                                   # the rest of the stack changed: it is set back after
        elif mentions(st) or not isinstance(st, (ast.Assign, ast.AugAssign, ast.Expr, ast.Pass)):
            return False
    return state in ("untouched", "restored")


def tops_in_locals(fn: ast.FunctionDef, helpers: list[ast.FunctionDef]) -> ast.FunctionDef:
    """play_game with the top card of each pile whose top it reads kept in a local (module
    docstring); a pile that does not qualify keeps its reads."""
    above = {id(c): p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
    module = {f.name: f for f in helpers}
    piles = sorted({n.value.id for n in ast.walk(fn) if isinstance(n, ast.Subscript)
                    and isinstance(n.value, ast.Name) and _is_top_read(n, n.value.id)})
    for s in piles:
        try:
            keeping = {}
            for call in _calls_handed(fn, s, above):
                name = call.func.id
                if name in module:
                    f = module[name]
                    j = next(i for i, a in enumerate(call.args) if isinstance(a, ast.Name) and a.id == s)
                    if j >= len(f.args.args) or any(isinstance(r, ast.Return) and r.value is not None
                                                    and not _only_indexed(r.value, f.args.args[j].arg)
                                                    for r in ast.walk(f)):
                        raise _Refused()            # it might hand the pile back under another name
                    keeping[name] = keeping.get(name, set()) | ({j} if keeps_top(f, j) else set())
                elif name not in STACK_HELPERS:
                    raise _Refused()
            rewrite = _Rewrite(s, keeping)
            kept = ast.fix_missing_locations(rewrite.function(copy.deepcopy(fn)))
            if not rewrite.reads:
                continue            # its top is read only where the pile changes: a local no one reads
            fn = kept
            above = {id(c): p for p in ast.walk(fn) for c in ast.iter_child_nodes(p)}
        except _Refused:
            continue
    return fn


def _own_expressions(st) -> list:
    if isinstance(st, SIMPLE):
        return [st]
    if isinstance(st, (ast.If, ast.While)):
        return [st.test]
    if isinstance(st, ast.For):
        return [st.iter, st.target]
    if isinstance(st, (ast.Break, ast.Continue, ast.Pass)):
        return []
    raise _Refused()                               # a with, a try: not in generated code


class _Rewrite:
    def __init__(self, s: str, keeping: dict):
        self.s, self.top, self.keeping = s, f"{s}_top_", keeping
        self.reads = 0                           # the reads of the top that became n_top(the local)

    def function(self, fn):
        fn.body = parse_stmts(f"{self.top} = -1") + self.block(fn.body)
        return fn

    def changes(self, expressions) -> bool:
        """Whether these expressions may change the pile (a store into it, a call handed it that
        neither only reads it nor keeps its top)."""
        s = self.s
        for e in expressions:
            for n in ast.walk(e):
                if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == s \
                        and isinstance(n.ctx, ast.Store):           # s[i] = x, s[i] += x
                    return True
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in READ_ONLY:
                    for j, a in enumerate(n.args):
                        if isinstance(a, ast.Name) and a.id == s and j not in self.keeping.get(n.func.id, ()):
                            return True
        return False

    def read_again(self) -> list:
        s, top = self.s, self.top
        return parse_stmts(f"{top} = {s}[{s}[0]] if 0 < {s}[0] < len({s}) else -1")

    def block(self, body: list) -> list:
        out = []
        pushed = None                            # the card of a push just before, by its name
        for st in body:
            done, pushed = self.statement(st, pushed)
            out += done
        return out

    def statement(self, st, pushed):
        s = self.s
        own = _own_expressions(st)
        for field in ("body", "orelse"):
            if isinstance(getattr(st, field, None), list):
                setattr(st, field, self.block(getattr(st, field)))
        if _is_push(st, s):
            st.value = self._replaced(st.value)
            card = st.value.id if isinstance(st.value, ast.Name) else None
            return [st], card
        if not self.changes(own):
            if isinstance(st, SIMPLE):
                st = self._replaced(st)
            elif isinstance(st, (ast.If, ast.While)):
                st.test = self._replaced(st.test)
            elif isinstance(st, ast.For):
                st.iter = self._replaced(st.iter)
            return [st], None
        if _is_grown(st, s) and pushed is not None:
            return [st] + parse_stmts(f"{self.top} = {pushed}"), None
        if isinstance(st, SIMPLE):
            return [st] + ([] if isinstance(st, LEAVES) else self.read_again()), None
        if isinstance(st, ast.If):
            st.body = self.read_again() + st.body
            st.orelse = self.read_again() + st.orelse
            return [st], None
        if isinstance(st, (ast.While, ast.For)):
            st.body = self.read_again() + st.body
            return [st] + self.read_again(), None
        raise _Refused()

    def _replaced(self, node):
        """node with its reads of the top as n_top(the local) (not those of the statements it holds:
        the caller has rewritten those)."""
        s, top, rewrite = self.s, self.top, self

        class Reads(ast.NodeTransformer):
            def visit_Subscript(self, n):
                if _is_top_read(n, s):
                    rewrite.reads += 1
                    return call_("n_top", name_(top))
                return self.generic_visit(n)

            def generic_visit(self, n):
                if isinstance(n, ast.stmt) and n is not node:
                    return n
                return super().generic_visit(n)
        return Reads().visit(node)
