"""Stage 3b: the types of expressions. `ExprTypes` (mixed into the Checker) gives every expression
its type (number, condition, text, player, players, color, kind, card, hand), checks what each
place expects, and says what is wrong in plain words, with a hint."""
from __future__ import annotations

from unorules.errors import did_you_mean
from .ir import constant
from .vocab import ATTRIBUTES, GLOBAL_NAMES, METHODS, SCOPED_NAMES


class ExprTypes:
    """The checker's expression typing (it reads self.colors, self.cards, self.options,
    self.counters and reports through self.error)."""

    def kind_literal(self, e) -> bool:
        """Is `e` a whole number that names a number kind (`7` for the kind `7`)? Then it is one
        (the compiler reads `kind_literals`)."""
        if e.get("kind") == "number" and isinstance(e["value"], int) and not isinstance(e["value"], bool) \
                and str(e["value"]) in self.cards:
            self.kind_literals.add(id(e))
            return True
        return False

    def no_member(self, e, of, what):
        names = _members(of)
        listed = "it has: " + ", ".join(f"`{n}`" for n in names) if names else None
        self.error("U0302", f"{_a(of)} has no {what} `{e['name']}`", e, "name", f"unknown {what}",
                   did_you_mean(e["name"], names) or listed)

    # -----------------------------------------------------------------------------------------
    def expect(self, expr, want, scope):
        if want == "kind" and self.kind_literal(expr):
            return
        if expr.get("kind") == "name" and want in ("color", "kind"):
            n = expr["name"]
            pool = self.colors if want == "color" else self.cards
            if n not in scope and n not in self.colors and n not in self.cards and n not in self.options \
                    and n not in SCOPED_NAMES:
                code, what = ("U0203", "color") if want == "color" else ("U0204", "card kind")
                self.error(code, f"unknown {what} `{n}`", expr, None, f"not a {what}",
                           did_you_mean(n, pool) or f"the {what}s are: " + ", ".join(f"`{c}`" for c in sorted(pool)))
                return
        got = self.type_of(expr, scope)
        if got is None or got == want:
            return
        if want == "number" and got == "number":
            return
        self.error("U0301", f"expected {_a(want)} here, but this is {_a(got)}", expr, None, f"this is {_a(got)}",
                   _type_help(want, got))

    def type_of(self, e, scope):
        k = e["kind"]
        if k == "number":
            return "number"
        if k == "bool":
            return "bool"
        if k == "string":
            return "text"
        if k in ("each_other", "each_player"):
            return "players"
        if k == "name":
            n = e["name"]
            if n in scope:
                return scope[n]
            if n in self.colors:
                return "color"
            if n in self.cards:
                return "kind"
            if n in self.options:
                return self.options[n]
            if n in self.counters:
                if self.counters[n]["per"] == "player":
                    self.error("U0207", f"`{n}` is kept per player: say whose", e, None, "whose?", f"write `me.{n}`")
                    return None
                return self.counter_type(n)
            if n in SCOPED_NAMES or n in GLOBAL_NAMES:
                self.error("U0207", f"`{n}` has no value here", e, None, "not bound here", _where_bound(n))
                return None
            known = list(scope) + sorted(self.colors) + list(self.cards) + list(self.options)
            self.error("U0201", f"unknown name `{n}`", e, None, "not a known name", did_you_mean(n, known))
            return None
        if k == "attr":
            of = self.type_of(e["of"], scope)
            if of is None:
                return None
            c = self.counters.get(e["name"])
            if of == "player" and c is not None and c["per"] == "player":
                return self.counter_type(e["name"])
            t = ATTRIBUTES.get((of, e["name"]))
            if t is None:
                self.no_member(e, of, "attribute")
            return t
        if k == "call":
            of = self.type_of(e["of"], scope)
            if of is None:
                return None
            m = METHODS.get((of, e["name"]))
            if m is None:
                self.no_member(e, of, "method")
                return None
            arg_type, binds, result = m
            if "as" in e:                      # `H.count(c where ...)`: the hand's card is `c`, `card` stays
                if "card" not in binds:
                    self.error("U0301", f"`{e['name']}(...)` takes no name for its card", e, "as")
                else:
                    self.new_name(e["as"], e, "as", scope, "the hand's card")
                    binds = {e["as"]: "card"}
            if "arg" not in e:
                self.error("U0301", f"`{e['name']}(...)` needs an argument", e, "name")
            else:
                self.expect(e["arg"], arg_type, {**scope, **binds})
            return result
        if k == "conditional":
            self.expect(e["if"], "bool", scope)
            a, b = self.type_of(e["then"], scope), self.type_of(e["else"], scope)
            if a and b and a != b:
                self.error("U0301", f"the two branches differ: {_a(a)} and {_a(b)}", e, None, "one value, two types",
                           "give `then` and `else` values of the same type")
            return a or b
        if k == "aggregate":
            over = e["over"]
            inner = dict(scope)
            self.new_name(over["as"], over, "as", scope, "the loop's player")
            inner[over["as"]] = "player"
            if "where" in over:
                self.expect(over["where"], "bool", inner)
            if e["op"] == "count":
                if "of" in e:
                    self.error("U0301", "`count(...)` counts players: it takes no `: value`", e["of"], None)
                return "number"
            if "of" not in e:
                self.error("U0301", f"`{e['op']}(...)` needs a value after `:`", e, None,
                           help=f"write `{e['op']}(each other as p: p.hand.size)`")
                return "number"
            self.expect(e["of"], "number", inner)
            return "player" if e["op"] in ("most", "fewest") else "number"
        if k == "not":
            self.expect(e["of"], "bool", scope)
            return "bool"
        if k == "is":
            self.expect(e["of"], "card", scope)
            return "bool"
        if k == "neg":
            self.expect(e["of"], "number", scope)
            return "number"
        if k == "binary":
            op = e["op"]
            if op in ("and", "or"):
                self.expect(e["left"], "bool", scope)
                self.expect(e["right"], "bool", scope)
                return "bool"
            if op in ("==", "!="):
                lt = self.type_of(e["left"], scope)
                rt = self.type_of(e["right"], scope)
                if (lt == "kind" and self.kind_literal(e["right"])) or (rt == "kind" and self.kind_literal(e["left"])):
                    return "bool"          # `card.kind == 7`: the number names the number kind
                if lt and rt and lt != rt:
                    self.error("U0301", f"cannot compare {_a(lt)} with {_a(rt)}", e, None, "never equal",
                               _type_help(lt, rt))
                elif lt == rt == "text":
                    self.text_can_be(e["left"], e["right"], scope)
                    self.text_can_be(e["right"], e["left"], scope)
                return "bool"
            self.expect(e["left"], "number", scope)
            self.expect(e["right"], "number", scope)
            if op in ("/", "%"):
                try:
                    divisor = constant(e["right"], self.option_values)
                except ZeroDivisionError:
                    divisor = None          # reported where that inner division is checked
                if divisor == 0:
                    self.error("U0303", "this divides by zero", e["right"], None, "the divisor is 0",
                               "divide by a number other than 0")
            return "bool" if op in ("<", "<=", ">", ">=") else "number"
        return None

    def text_can_be(self, name, text, scope):
        """`NAME == "TEXT"` where NAME is a choice of named options: TEXT must be one of them, or
        the comparison is never true."""
        if name.get("kind") != "name" or text.get("kind") != "string" or scope.get(name["name"]) != "text":
            return
        values = self.text_values.get(name["name"])
        if values is not None and text["value"] not in values:
            self.error("U0303", f"`{name['name']}` is one of {', '.join(f'`{v}`' for v in values)}: it is never "
                       f"\"{text['value']}\"", text, None, "never this",
                       did_you_mean(text["value"], values) or "compare it with one of the options it was chosen from")


def _members(of):
    return [a for (r, a) in ATTRIBUTES if r == of] + [m for (r, m) in METHODS if r == of]


def _a(t):
    return {"number": "a number", "bool": "a condition (true or false)", "text": "text",
            "player": "a player", "players": "a group of players", "color": "a color",
            "kind": "a card kind", "card": "a card", "hand": "a hand"}.get(t, t)


def _type_help(want, got):
    if want == "color" and got == "card":
        return "write `.color` to take the card's color"
    if want == "kind" and got == "card":
        return "write `.kind` to take the card's kind"
    if want == "number" and got == "hand":
        return "write `.size` for the number of cards"
    if want == "bool" and got == "number":
        return "compare it: `... > 0`"
    return None


def _where_bound(name):
    return {
        "card": "`card` is the card in question: in a card's rules, a `react` rule, an `on play`/`on draw` rule, or inside `hand.any(...)`/`hand.count(...)`",
        "target": "`target` exists inside an `attack`, a `challenge:` or a `react` rule",
        "attacker": "`attacker` exists inside an `attack`, a `challenge:` or a `react` rule",
        "penalty": "`penalty` exists inside an `attack`, a `challenge:` or a `react` rule",
        "legal": "`legal` exists inside `challenge:`",
        "challenger": "`challenger` exists inside `challenge:`",
        "chosen": "`chosen` exists after `choose player` in the same rule",
        "revealed": "`revealed` exists after `reveal` in the same rule",
        "candidate": "`candidate` exists inside `choose player where ...`",
        "top": "there is no top card before the first card is turned up (in `on round_start` and the cut)",
    }.get(name)
