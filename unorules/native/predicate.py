"""A card's simple effects done without a branch. A played card's effect is chosen by its kind:

    if HAS_PLAY[k]:                   # the kinds with an effect (a table: 1 or 0 by kind)
        if k == 10:
            p59 = (p + direction) % N
            if p59 != NONE:
                skips[p59] = 1
        elif k == 11:
            direction = -direction
        elif k == 12:
            ... draws, calls ...

Whether the picked card has an effect, and which, is a coin toss to the branch predictor: the
card comes out of straight-line code (the pick by pdep), so no branch before it tells an action
card from a number. On rlcard those two jumps missed about 19 times a game (bench/native_profile.py
--predictor). A case whose body is simple is done on every play instead, each store as a select
that writes back what was there unless the kind is the case's:

    p59 = (p + direction) % N
    skips[p59] = 1 if k == 10 and p59 != NONE else skips[p59]
    direction = -direction if k == 11 else direction
    if HAS_PLAY_LEFT[k]:              # the table without the kinds done above
        if k == 12:
            ...

The same games. A case is simple when, for every kind, running it with its stores made selects
changes nothing and raises nothing unless the kind is its own:

  - its statements are assignments and `if`s without `else`; an `if`'s test joins the selects
    under it, and must read no name its body binds;
  - its expressions are names, whole numbers, arithmetic that cannot raise (no division but
    `% N` and `// N` by the number of seats, a module constant the function does not bind),
    comparisons, `and`, `or`, `not` and `x if c else y`, and read no array;
  - a name it binds is either its own (bound once in the case and named nowhere else in the
    function; bound on every play, read only after that binding and in its block), or bound on
    every path to the chain (a parameter, or bound before it in each block that holds it), and
    written as `x = e if c else x`;
  - an array it writes is one of play_game's seat arrays (allocated `np.zeros(N, ...)` at its
    top, and never bound again), at an index `e % N` or at one of its own names bound to one:
    always in bounds, so the select's read and its write back cannot raise;
  - it calls nothing and does not bind the kind.

A case of any other shape stays in the chain, as does every case whose table entry is 0 (it
never ran). The guard reads a copy of its table without the kinds done above; when none is
left, the guard goes."""
from __future__ import annotations

import ast
import copy

from .syntax import assigned_names, bindings, name_, parents

SAFE_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)
SAFE_UNARY = (ast.USub, ast.UAdd, ast.Not, ast.Invert)
SEATS = "N"


def effects_without_branches(fn: ast.FunctionDef, tables: dict) -> tuple[ast.FunctionDef, dict]:
    """play_game with the simple cases of each kind's effect chain done as selects (the module's
    docstring); returns it and the new guard tables ({name: list of 0/1})."""
    bound = assigned_names(fn) | {a.arg for a in fn.args.args}
    if SEATS in bound:
        return fn, {}
    seat_arrays = _seat_arrays(fn)
    uses = _uses(fn)
    module_names = set(uses) - bound                 # the module's constants and tables
    made: dict = {}
    above = parents(fn)
    for guard in [n for n in ast.walk(fn) if isinstance(n, ast.If)]:
        chain = _chain(guard, tables)
        if chain is None:
            continue
        table, kind, cases = chain
        defined = _defined_at(guard, above, fn) | module_names
        done = []
        for value, test_node, body in cases:
            if not tables[table][value]:
                continue
            selects = _as_selects(body, kind, value, seat_arrays, uses, defined)
            if selects is not None:
                done.append((value, test_node, selects))
        if not done:
            continue
        left = [0 if i in {v for v, _, _ in done} else int(x) for i, x in enumerate(tables[table])]
        name = _fresh(f"{table}_LEFT", tables, made)
        made[name] = left
        guard.test = ast.Subscript(value=name_(name), slice=name_(kind), ctx=ast.Load())
        guard.body = _without(guard.body, {id(t) for _, t, _ in done})
        hoisted = [st for _, _, sts in done for st in sts]
        parent = above[id(guard)]
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(st is guard for st in block):
                at = next(i for i, st in enumerate(block) if st is guard)
                keep = [guard] if any(x for x in left) and guard.body else []
                block[at:at + 1] = hoisted + keep
                break
    return ast.fix_missing_locations(fn), made


def _fresh(base: str, tables: dict, made: dict) -> str:
    name = base
    while name in tables or name in made:
        name += "_"
    return name


def _chain(guard: ast.If, tables: dict):
    """(table, kind, [(value, its test node, its body)]) of `if T[k]: if k == a: ... elif k == b: ...`
    (no else anywhere, T a table of this module, the chain the guard's only statement), or None."""
    t = guard.test
    if guard.orelse or not (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in tables
                            and isinstance(t.slice, ast.Name)) or len(guard.body) != 1:
        return None
    table, kind = t.value.id, t.slice.id
    values = tables[table]
    if not isinstance(values, (list, tuple)) or not all(type(x) in (int, bool) for x in values):
        return None
    cases, node = [], guard.body[0]
    while True:
        if not isinstance(node, ast.If):
            return None
        c = node.test
        if not (isinstance(c, ast.Compare) and isinstance(c.left, ast.Name) and c.left.id == kind
                and len(c.ops) == 1 and isinstance(c.ops[0], ast.Eq) and isinstance(c.comparators[0], ast.Constant)
                and type(c.comparators[0].value) is int and 0 <= c.comparators[0].value < len(values)):
            return None
        cases.append((c.comparators[0].value, node, node.body))
        if not node.orelse:
            return table, kind, cases
        if len(node.orelse) != 1:
            return None
        node = node.orelse[0]


def _without(body: list, dropped: set) -> list:
    """The chain (body's one `if`/`elif`) without the links whose `if` node is in dropped."""
    links, node = [], body[0]
    while True:
        links.append(node)
        if not node.orelse:
            break
        node = node.orelse[0]
    kept = [n for n in links if id(n) not in dropped]
    for a, b in zip(kept, kept[1:] + [None]):
        a.orelse = [b] if b is not None else []
    return kept[:1]


def _seat_arrays(fn: ast.FunctionDef) -> set:
    """Names bound once in play_game, at its top, to np.zeros(N, ...): arrays of N cells, N the
    seats."""
    binds = bindings(fn)
    out = set()
    for st in fn.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            v = st.value
            if isinstance(v, ast.Call) and ast.unparse(v.func) == "np.zeros" and v.args \
                    and isinstance(v.args[0], ast.Name) and v.args[0].id == SEATS and len(binds[st.targets[0].id]) == 1:
                out.add(st.targets[0].id)
    return out - {a.arg for a in fn.args.args}


def _uses(node) -> dict:
    """{name: how many times the code names it}."""
    out: dict = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out[n.id] = out.get(n.id, 0) + 1
    return out


def _defined_at(node, above: dict, fn: ast.FunctionDef) -> set:
    """Names bound on every path to `node`: the parameters, and what the statements before it in
    each block that holds it bind (an `if` binds what both its branches bind)."""
    out = {a.arg for a in fn.args.args}
    child, parent = node, above.get(id(node))
    while parent is not None:
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(st is child for st in block):
                for st in block[:next(i for i, st in enumerate(block) if st is child)]:
                    out |= _binds(st)
        child, parent = parent, above.get(id(parent))
    return out


def _binds(st) -> set:
    """Names a statement binds on every path through it (none through a loop, which may not run)."""
    if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return assigned_names(st)
    if isinstance(st, ast.If) and st.orelse:
        return set().union(*map(_binds, st.body)) & set().union(*map(_binds, st.orelse))
    return set()


def _as_selects(body: list, kind: str, value: int, seat_arrays: set, uses: dict, defined: set):
    """The case's statements as selects on `kind == value` (and its `if`s' tests), or None when
    the case is not simple (the module's docstring)."""
    case = ast.Module(body=body, type_ignores=[])
    if any(isinstance(n, (ast.Call, ast.For, ast.While)) for n in ast.walk(case)):
        return None                         # never simple: said at once (a draw's body is large)
    binds, here = bindings(case), _uses(case)
    own = {x for x in binds if uses.get(x, 0) == here[x]}     # bound here and named nowhere else
    once = {x for x in own if len(binds[x]) == 1}
    bound_own: set = set()                  # its own names bound so far, in this block and those around it
    bound_mod: set = set()                  # ... and of those, the ones bound to `e % N`
    out: list = []

    def readable(e) -> bool:
        """Reads only names defined on every play here: the module's, those defined before the
        chain, and its own bound above in this block or one around it."""
        return _safe(e) and all(n.id in bound_own or (n.id in defined and n.id not in own)
                                      for n in ast.walk(e) if isinstance(n, ast.Name))

    def when(conds: list) -> ast.expr:
        return copy.deepcopy(conds[0] if len(conds) == 1 else ast.BoolOp(op=ast.And(), values=list(conds)))

    def walk(sts: list, conds: list) -> bool:
        for st in sts:
            if isinstance(st, ast.If):                  # its test, read again by each select under it
                under = set().union(*map(assigned_names, st.body))
                if st.orelse or not readable(st.test) or any(
                        isinstance(n, ast.Name) and n.id in under for n in ast.walk(st.test)):
                    return False
                around = set(bound_own), set(bound_mod)
                if not walk(st.body, conds + [copy.deepcopy(st.test)]):
                    return False
                bound_own.intersection_update(around[0])     # what the `if` bound is not read after it
                bound_mod.intersection_update(around[1])
            elif isinstance(st, ast.Assign) and len(st.targets) == 1:
                t = st.targets[0]
                if not readable(st.value):
                    return False
                if isinstance(t, ast.Name):
                    if t.id == kind:
                        return False
                    if t.id in once:            # its own, bound once: on every play (unseen elsewhere)
                        out.append(copy.deepcopy(st))
                        bound_own.add(t.id)
                        if _is_mod_seats(st.value):
                            bound_mod.add(t.id)
                    elif t.id in defined and t.id not in own:
                        out.append(ast.Assign(targets=[name_(t.id, ast.Store())], value=ast.IfExp(
                            test=when(conds), body=copy.deepcopy(st.value), orelse=name_(t.id))))
                    else:
                        return False
                elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id in seat_arrays:
                    i = t.slice
                    if not (_is_mod_seats(i) and readable(i) or isinstance(i, ast.Name) and i.id in bound_mod):
                        return False
                    read = ast.Subscript(value=name_(t.value.id), slice=copy.deepcopy(i), ctx=ast.Load())
                    out.append(ast.Assign(targets=[copy.deepcopy(t)], value=ast.IfExp(
                        test=when(conds), body=copy.deepcopy(st.value), orelse=read)))
                else:
                    return False
            else:
                return False
        return True

    test = ast.Compare(left=name_(kind), ops=[ast.Eq()], comparators=[ast.Constant(value)])
    if not walk(body, [test]):
        return None
    return out


def _is_mod_seats(e) -> bool:
    return isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mod) and isinstance(e.right, ast.Name) \
        and e.right.id == SEATS


def _safe(e) -> bool:
    """An expression that reads no array, calls nothing and cannot raise."""
    if isinstance(e, ast.Name):
        return True
    if isinstance(e, ast.Constant):
        return type(e.value) in (int, bool)
    if isinstance(e, ast.UnaryOp):
        return isinstance(e.op, SAFE_UNARY) and _safe(e.operand)
    if isinstance(e, ast.BinOp):
        if isinstance(e.op, (ast.Mod, ast.FloorDiv)):
            return isinstance(e.right, ast.Name) and e.right.id == SEATS and _safe(e.left)
        return isinstance(e.op, SAFE_BINOPS) and _safe(e.left) and _safe(e.right)
    if isinstance(e, ast.Compare):
        return _safe(e.left) and all(_safe(c) for c in e.comparators) \
            and not any(isinstance(o, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for o in e.ops)
    if isinstance(e, ast.BoolOp):
        return all(_safe(v) for v in e.values)
    if isinstance(e, ast.IfExp):
        return _safe(e.test) and _safe(e.body) and _safe(e.orelse)
    return False
