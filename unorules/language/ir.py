"""Reading a rulebook's IR: its sides, kind sets, constant values, and every action it holds.
Shared by the checker, the compiler and explain (one reading of the same data)."""
from __future__ import annotations

from collections import Counter


def sides_of(ir: dict) -> list[dict]:
    """The rulebook's sides; a plain `colors` list is the one side `light`."""
    if ir.get("sides"):
        return ir["sides"]
    return [{"name": "light", "colors": list(ir.get("colors", []))}]


def deck_counts(ir) -> dict[str, Counter]:
    """card kind -> Counter of side -> copies in the box."""
    out: dict[str, Counter] = {}
    sides = sides_of(ir)
    for d in ir.get("deck", []):
        side = d.get("side") or sides[0]["name"]
        ncolors = len(next((s["colors"] for s in sides if s["name"] == side), sides[0]["colors"]))
        for e in d["entries"]:
            copies = e["copies"] if e["kind"] == "per_color" else [e]
            for cp in copies:
                for f in cp["faces"]:
                    out.setdefault(f, Counter())[side] += cp["count"] * (ncolors if e["kind"] == "per_color" else 1)
    return out


def category_of(card: dict) -> str:
    name = card["names"][0]
    return card.get("category") or ("number" if name.isdigit() else "action")


def kind_names(names, cards) -> list[str]:
    """A kind set's names, with `any number` / `any action` / `any wild` spelt out."""
    out = []
    for n in names:
        if isinstance(n, dict):
            out += [c["names"][0] for c in cards if category_of(c) == n["any"]]
        else:
            out.append(n)
    return list(dict.fromkeys(out))


def literal_value(expr):
    """The value of a constant expression, or None."""
    if not isinstance(expr, dict):
        return None
    if expr.get("kind") in ("number", "bool", "string"):
        return expr["value"]
    if expr.get("kind") == "neg":
        v = literal_value(expr["of"])
        return -v if isinstance(v, (int, float)) else None
    return None


class _Unknown(Exception):
    pass


def constant(expr, options: dict | None = None):
    """The value of a number expression known before the game (literals, options' declared values
    and arithmetic on them), or None. Raises ZeroDivisionError for a division by a known zero."""
    try:
        return _const(expr, options or {})
    except _Unknown:
        return None


def _const(e, options):
    if not isinstance(e, dict):
        raise _Unknown
    k = e.get("kind")
    if k == "number":
        return e["value"]
    if k == "name" and e["name"] in options and not isinstance(options[e["name"]], (bool, str)):
        return options[e["name"]]
    if k == "neg":
        return -_const(e["of"], options)
    if k == "binary" and e["op"] in ("+", "-", "*", "/", "%"):
        a, b = _const(e["left"], options), _const(e["right"], options)
        if e["op"] in ("/", "%") and b == 0:
            raise ZeroDivisionError
        if e["op"] == "/":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        return {"+": a + b, "-": a - b, "*": a * b, "%": a % b if e["op"] == "%" else 0}[e["op"]]
    raise _Unknown


def may_be_fraction(e, options: dict | None = None) -> bool:
    """Can number expression `e` be other than a whole number? Whole numbers stay whole under
    `+`, `-`, `*`, `%` and `/` (a division of whole numbers rounds down); a fraction comes only from
    a literal or an option that is one."""
    if not isinstance(e, dict):
        return False
    k = e.get("kind")
    if k == "number":
        return isinstance(e["value"], float) and not e["value"].is_integer()
    if k == "name":
        v = (options or {}).get(e["name"])
        return isinstance(v, float) and not v.is_integer()
    if k == "neg":
        return may_be_fraction(e["of"], options)
    if k == "binary" and e["op"] in ("+", "-", "*", "/", "%"):
        return may_be_fraction(e["left"], options) or may_be_fraction(e["right"], options)
    if k == "conditional":
        return may_be_fraction(e["then"], options) or may_be_fraction(e["else"], options)
    if k == "aggregate" and e["op"] in ("sum", "max", "min"):
        return may_be_fraction(e.get("of"), options)
    return False


def probability_options(ir: dict) -> set[str]:
    """The options that stand for a chance (`perform ... chance OPTION`, `cut chance OPTION`): their
    values must lie in 0..1."""
    cut = ir.get("setup", {}).get("cut")
    chances = [cut["chance"]] if cut else []
    for a in all_actions(ir):
        if a["kind"] == "perform" and "chance" in a:
            chances.append(a["chance"])
    names = {o["name"] for o in ir.get("options", [])}
    return {c["name"] for c in chances if c.get("kind") == "name" and c["name"] in names}


def all_actions(ir: dict):
    """Every action of a rulebook, nested ones included."""
    lists = []
    for card in ir.get("cards", []):
        lists += [e["actions"] for e in card.get("effects", [])]
        if "challenge" in card:
            lists.append(card["challenge"])
    lists += [x["actions"] for key in ("reactions", "triggers", "declarations", "rules", "false_calls")
              for x in ir.get(key, [])]
    if ir.get("turn", {}).get("draw_with"):
        lists.append(ir["turn"]["draw_with"])
    if ir.get("setup", {}).get("cut"):
        lists.append(ir["setup"]["cut"]["actions"])
    for lst in lists:
        yield from walk(lst)


def walk(actions):
    for a in actions:
        yield a
        for key in ("actions", "then", "otherwise"):
            if isinstance(a.get(key), list):
                yield from walk(a[key])
        for br in a.get("branches", []):
            yield from walk(br["then"])
        for o in a.get("outcomes", []):
            yield from walk(o["actions"])


def mentions(node, kinds=frozenset(), attrs=frozenset()) -> bool:
    """Does any node under `node` (an IR, a rule, an expression) have one of these kinds, or read
    one of these attributes (`P.front`)?"""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            k = n.get("kind")
            if k in kinds or (k == "attr" and n.get("name") in attrs):
                return True
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return False
