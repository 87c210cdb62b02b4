"""The compiled expressions' building blocks: the built-in vocabulary's implementations (vocab.py
lists the same entries, and the asserts at the end hold the two to one set), operator closures and
the constant folding the compiler does. Every closure is `fn(state, env)`."""
from __future__ import annotations

from unorules.language.vocab import ATTRIBUTES, GLOBAL_NAMES, METHODS, SCOPED_NAMES

# ---- the built-in vocabulary's implementations (vocab.py lists the same entries) ---------------

# Inside an action whose subject is a loop (`each player give 1 card to next`), `next` and `previous`
# are the next and previous of the loop's player doing it, kept under RELATIVE_TO (a key no rulebook
# name can be); elsewhere, of `me`.
RELATIVE_TO = "@relative_to"

GLOBAL_NAME_IMPL = {
    "me": lambda s, env: env["me"],
    "next": lambda s, env: s.next_of(env.get(RELATIVE_TO, env["me"])),
    "previous": lambda s, env: s.previous_of(env.get(RELATIVE_TO, env["me"])),
    "dealer": lambda s, env: s.dealer,
    "current_color": lambda s, env: s.color,
    "top": lambda s, env: s.discard[-1] if s.discard else None,
    "player_count": lambda s, env: s.active_count(),
    "streak": lambda s, env: s.streak,
    "clockwise": lambda s, env: s.direction == 1,
    "first_card": lambda s, env: s.first_card,
    "just_drawn": lambda s, env: s.turn_drawn is not None and env.get("card") == s.turn_drawn,
    "eliminated_count": lambda s, env: s.knocked_out,
    "fewest_cards": lambda s, env: min((len(s.hands[q]) for q in s.others_in_order(env["me"])), default=0),
    "most_cards": lambda s, env: max((len(s.hands[q]) for q in s.others_in_order(env["me"])), default=0),
}


def _attr(fn):
    return lambda of: (lambda s, env: fn(s, of(s, env)))


ATTRIBUTE_IMPL = {
    "hand": _attr(lambda s, p: s.hands[p]),
    "score": _attr(lambda s, p: s.scores[p]),
    "seat": _attr(lambda s, p: p),
    "next": _attr(lambda s, p: s.next_of(p)),
    "front": _attr(lambda s, p: s.fronts[p]),
    "points": _attr(lambda s, h: sum(s.points(_holder(s, h), c) for c in h)),
    "previous": _attr(lambda s, p: s.previous_of(p)),
    "team": _attr(lambda s, p: s.team_of[p]),
    "partner": _attr(lambda s, p: s.partner_of(p)),
    "place": _attr(lambda s, p: s.places.index(p) + 1 if p in s.places else 0),
    "size": _attr(lambda s, h: len(h)),
    "color": _attr(lambda s, c: s.color_of(c)),
    "kind": _attr(lambda s, c: s.kind_of(c)),
    "rank": _attr(lambda s, c: s.game.rules.kinds[s.kind_of(c)].rank),
    "wild": _attr(lambda s, c: s.game.rules.kinds[s.kind_of(c)].wild),
}


def _holder(s, cards):
    """The seat whose hand or front `cards` is (a card's points may depend on its holder)."""
    return next(q for q in range(s.n) if s.hands[q] is cards or s.fronts[q] is cards)


def _count(of, arg, name="card"):
    def fn(s, env):
        saved = env.get(name)
        n = 0
        for c in of(s, env):
            env[name] = c
            if arg(s, env):
                n += 1
        env[name] = saved
        return n
    return fn


def _any(of, arg, name="card"):
    def fn(s, env):
        saved = env.get(name)
        found = False
        for c in of(s, env):
            env[name] = c
            if arg(s, env):
                found = True
                break
        env[name] = saved
        return found
    return fn


def _has(of, arg, name=None):
    return lambda s, env: any(s.kind_of(c) == arg(s, env) for c in of(s, env))


METHOD_IMPL = {"count": _count, "any": _any, "has": _has}


def _div(a, b):
    return a // b if isinstance(a, int) and isinstance(b, int) and b else (a / b if b else 0)


# one closure per operator (no inner call to an operator function): expressions run in the hot path
BINARY_IMPL = {
    "or": lambda l, r: (lambda s, env: bool(l(s, env)) or bool(r(s, env))),
    "and": lambda l, r: (lambda s, env: bool(l(s, env)) and bool(r(s, env))),
    "==": lambda l, r: (lambda s, env: l(s, env) == r(s, env)),
    "!=": lambda l, r: (lambda s, env: l(s, env) != r(s, env)),
    "<": lambda l, r: (lambda s, env: l(s, env) < r(s, env)),
    "<=": lambda l, r: (lambda s, env: l(s, env) <= r(s, env)),
    ">": lambda l, r: (lambda s, env: l(s, env) > r(s, env)),
    ">=": lambda l, r: (lambda s, env: l(s, env) >= r(s, env)),
    "+": lambda l, r: (lambda s, env: l(s, env) + r(s, env)),
    "-": lambda l, r: (lambda s, env: l(s, env) - r(s, env)),
    "*": lambda l, r: (lambda s, env: l(s, env) * r(s, env)),
    "/": lambda l, r: (lambda s, env: _div(l(s, env), r(s, env))),
    "%": lambda l, r: (lambda s, env: (lambda a, b: a % b if b else 0)(l(s, env), r(s, env))),
}

# comparisons with a constant on the right: the constant is captured, not called
_CONST_RIGHT = {
    "==": lambda l, c: (lambda s, env: l(s, env) == c),
    "!=": lambda l, c: (lambda s, env: l(s, env) != c),
    "<": lambda l, c: (lambda s, env: l(s, env) < c),
    "<=": lambda l, c: (lambda s, env: l(s, env) <= c),
    ">": lambda l, c: (lambda s, env: l(s, env) > c),
    ">=": lambda l, c: (lambda s, env: l(s, env) >= c),
}
_NOT_CONSTANT = object()


def _constant(e, compiler):
    """The value of an expression known when compiling (a literal, a color, a kind, an option)."""
    if id(e) in compiler.kind_literals:              # `7` where a card kind is meant
        return compiler.kind_id[str(e["value"])]
    if e["kind"] in ("number", "bool", "string"):
        return e["value"]
    if e["kind"] == "name":
        n = e["name"]
        if n in GLOBAL_NAMES or n in SCOPED_NAMES:
            return _NOT_CONSTANT
        for table in (compiler.color_id, compiler.kind_id, compiler.option_values):
            if n in table:
                return table[n]
    return _NOT_CONSTANT


def _fast_attr(e):
    """`card.color`, `card.kind`, `top.kind`, `me.hand` ...: one closure reading the tables."""
    of, name = e["of"], e["name"]
    if of["kind"] != "name":
        return None
    n = of["name"]
    if n in SCOPED_NAMES or n == "me":
        if name == "color":
            return lambda s, env: s.ccolor[env[n]]
        if name == "kind":
            return lambda s, env: s.ckind[env[n]]
        if name == "hand":
            return lambda s, env: s.hands[env[n]]
        if name == "wild":
            return lambda s, env: s.rules.wild_kind[s.ckind[env[n]]]
    if n == "top":
        if name == "color":
            return lambda s, env: s.ccolor[s.discard[-1]]
        if name == "kind":
            return lambda s, env: s.ckind[s.discard[-1]]
    return None


assert set(GLOBAL_NAME_IMPL) == set(GLOBAL_NAMES)
assert {a for (_, a) in ATTRIBUTES} == set(ATTRIBUTE_IMPL)
assert {m for (_, m) in METHODS} == set(METHOD_IMPL)
