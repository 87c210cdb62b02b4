"""Code generation, expressions: a rule's expression (IR) as the text of one Python expression over
the generated simulator's locals and tables (generator.py). Only identifiers made here and `repr` of
validated ints, floats and booleans are written; every name of the rulebook (a color, a kind, an
option) is mapped to its integer first, so no rulebook text ever becomes source.

A construct with no translation raises NotCovered: the simulation then runs on the engine."""
from __future__ import annotations

from unorules.engine.expressions import RELATIVE_TO


def _reads(e, name: str) -> bool:
    """Does expression `e` read the name `name` anywhere?"""
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if n.get("kind") == "name" and n.get("name") == name:
                return True
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return False


class NotCovered(Exception):
    """A construct the generator does not translate (its message says which)."""


def literal(v) -> str:
    """The source of a validated number or truth value: the only literals generated code holds."""
    if type(v) is bool or type(v) is int:
        return repr(v)
    if type(v) is float and v == v and v not in (float("inf"), float("-inf")):
        return repr(v)
    raise NotCovered(f"a value of type {type(v).__name__} in an expression")


ARITHMETIC = {"*": "TIMES", "+": "PLUS", "-": "MINUS"}   # a rule's arithmetic, in counted code: exact in Python
BINARY = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "+": "+", "-": "-", "*": "*"}


class ExprGen:
    """Expressions of one compiled rulebook. `scope` maps the rule's bound names (me, card, target,
    penalty, just_drawn, ...) to the Python expressions that hold them where the code runs."""

    def __init__(self, compiler, hand=lambda p: f"hands[{p}]", hand_len=lambda p: f"len(hands[{p}])",
                 counted: bool = False, hand_points=lambda p: f"sum(POINTS[c] for c in hands[{p}])", text=None):
        self.hand_points = hand_points
        self.text = text                    # a rulebook text -> the source of its index in TEXTS (texts compare as indices)
        self.c = compiler                   # compiler.Compiler: its name tables (colors, kinds, options)
        self.hand, self.hand_len = hand, hand_len     # a player's hand, and its size, as the generator holds hands
        self.counted = counted              # hands are counts per face and a mask of the faces held
        # with counted hands, each face predicate of `hand.any(...)`: (table, predicate of c, col, tf),
        # made into a table of face masks by the current color and the top card's face when loaded
        self.face_tables: list[tuple[str, str]] = []
        self.fresh = 0
        # counters and flags: name -> the local that holds it (a value, or a list by seat)
        self.memory = {c["name"]: f"mem{i}" for i, c in enumerate(compiler.ir.get("counters", []))}

    def text_index(self, words: str) -> str:
        if self.text is None:
            raise NotCovered("a text value in an expression")
        return self.text(words)

    def name_var(self, base: str) -> str:
        self.fresh += 1
        return f"{base}{self.fresh}"

    def expr(self, e, scope: dict) -> str:
        k = e["kind"]
        if id(e) in self.c.kind_literals:                  # `7` where a card kind is meant
            return literal(self.c.kind_id[str(e["value"])])
        if k in ("number", "bool"):
            return literal(e["value"])
        if k == "string":
            return self.text_index(e["value"])
        if k == "name":
            return self.name(e["name"], scope)
        if k == "attr":
            return self.attr(e, scope)
        if k == "not":
            return f"(not {self.expr(e['of'], scope)})"
        if k == "is":                                      # the kinds of the category, as numbers
            kinds = "".join(f"{literal(kind.id)}, " for kind in self.c.kinds if kind.category == e["category"])
            return f"(CKIND[{self.expr(e['of'], scope)}] in ({kinds}))"
        if k == "neg":
            return f"(-{self.expr(e['of'], scope)})"
        if k == "conditional":
            return (f"({self.expr(e['then'], scope)} if {self.expr(e['if'], scope)} "
                    f"else {self.expr(e['else'], scope)})")
        if k == "binary":
            op = e["op"]
            left, right = self.expr(e["left"], scope), self.expr(e["right"], scope)
            if op in ("and", "or"):                        # the engine's: a truth value either way
                return f"({self.truth(e['left'], left)} {op} {self.truth(e['right'], right)})"
            if self.counted and op in ("==", "!=") and any(
                    side.get("kind") == "name" and side["name"] in ("card", "top") for side in (e["left"], e["right"])):
                raise NotCovered("comparing cards themselves with hands counted per face")
            if op == "/":
                return f"DIVIDE({left}, {right})"
            if op == "%":
                return f"MODULO({left}, {right})"
            if self.counted and op in ARITHMETIC:        # native code checks these against int64's range
                return f"{ARITHMETIC[op]}({left}, {right})"
            return f"({left} {BINARY[op]} {right})"
        if k == "call":
            return self.call(e, scope)
        if k == "aggregate":
            return self.aggregate(e, scope)
        raise NotCovered(f"the expression `{k}`")

    def aggregate(self, e, scope: dict) -> str:
        """sum / max / min / count over a loop of players (compiler.aggregate), or the first player
        with the most / fewest (MOST, FEWEST)."""
        over, op = e["over"], e["op"]
        me = scope["me"]
        q = self.name_var("q")
        players = f"OTHERS[direction][{me}]" if over["kind"] == "each_other" else f"(({me},) + OTHERS[direction][{me}])"
        inner = dict(scope, **{over["as"]: q})
        if "where" in over:
            players = f"tuple({q} for {q} in {players} if {self.expr(over['where'], inner)})"
        of = self.expr(e["of"], inner) if "of" in e else "1"
        if op == "count":
            return f"sum(1 for {q} in {players})"
        if op == "sum":
            return f"sum({of} for {q} in {players})"
        if op in ("max", "min"):
            return f"{op}(({of} for {q} in {players}), default=0)"
        if op in ("most", "fewest"):
            return f"{op.upper()}([({q}, {of}) for {q} in {players}])"
        raise NotCovered(f"the aggregate `{op}`")

    def truth(self, e, text: str) -> str:
        """`text` as a truth value: as it is where the expression always gives one (a comparison,
        `not`, `and`/`or`, `any`, a card's wildness, a bool name), else through bool()."""
        k = e["kind"]
        if k in ("bool", "not", "is") or (k == "binary" and e["op"] in ("and", "or", "==", "!=", "<", "<=", ">", ">=")):
            return text
        if (k == "call" and e["name"] in ("any", "has")) or (k == "attr" and e["name"] == "wild"):
            return text
        if k == "name" and e["name"] in ("just_drawn", "clockwise", "first_card"):
            return text
        return f"bool({text})"

    def name(self, n: str, scope: dict) -> str:
        c = self.c
        if n in c.counters and c.counters[n]["per"] == "game":
            return self.memory[n]
        if n in scope:
            return scope[n]
        if n == "next":
            return f"((({scope.get(RELATIVE_TO, scope['me'])}) + direction) % N)"
        if n == "previous":
            return f"((({scope.get(RELATIVE_TO, scope['me'])}) - direction) % N)"
        if n == "dealer":
            return "dealer"
        if n == "current_color":
            return "color"
        if n == "top":
            return "(discard[-1] if discard else None)"
        if n == "player_count":
            return "N"                                      # no seat is ever out where code is generated
        if n == "streak":
            return "streak"
        if n == "clockwise":
            return "(direction == 1)"
        if n == "first_card":
            return "first_card"
        if n == "eliminated_count":          # no generated code runs `eliminate` (COVERED_ACTIONS)
            raise NotCovered("`eliminated_count`")
        if n == "just_drawn":                # expressions.GLOBAL_NAME_IMPL: the card in question is the turn's drawn card
            return f"({scope['card']} == turn_drawn)" if "card" in scope else "False"
        if n in ("fewest_cards", "most_cards"):
            pick = "min" if n == "fewest_cards" else "max"
            return f"{pick}({self.hand_len('q')} for q in OTHERS[direction][{scope['me']}])"
        if n in c.color_id:
            return literal(c.color_id[n])
        if n in c.kind_id:
            return literal(c.kind_id[n])
        if n in c.option_values:
            v = c.option_values[n]
            return self.text_index(v) if type(v) is str else literal(v)
        raise NotCovered(f"the name `{n}` where the generator does not bind it")

    def attr(self, e, scope: dict) -> str:
        n = e["name"]
        if n in self.c.counters:
            if self.c.counters[n]["per"] == "player":
                return f"{self.memory[n]}[{self.expr(e['of'], scope)}]"
            raise NotCovered(f"`.{n}` of a counter kept for the game")
        if n == "color" and e["of"] == {"kind": "name", "name": "top"} and "top" not in scope:
            return "CCOLOR[discard[-1]]"
        if n == "kind" and e["of"] == {"kind": "name", "name": "top"} and "top" not in scope:
            return "CKIND[discard[-1]]"
        if n in ("size", "points") and e["of"].get("kind") == "attr" and e["of"]["name"] == "hand":
            return (self.hand_len if n == "size" else self.hand_points)(self.expr(e["of"]["of"], scope))
        of = self.expr(e["of"], scope)
        if n == "color":
            return f"CCOLOR[{of}]"
        if n == "kind":
            return f"CKIND[{of}]"
        if n == "rank":
            return f"RANK[CKIND[{of}]]"
        if n == "wild":
            return f"WILD[CKIND[{of}]]"
        if n == "hand":
            return self.hand(of)
        if n == "size":
            return f"len({of})"
        if n == "score":
            return f"scores[{of}]"
        if n == "seat":
            return of
        if n == "next":
            return f"((({of}) + direction) % N)"
        if n == "previous":
            return f"((({of}) - direction) % N)"
        if n == "points":
            return f"sum(POINTS[c] for c in {of})"
        raise NotCovered(f"the attribute `.{n}`")

    # ---- a face predicate over a counted hand: one mask test --------------------------------
    FACE_NAMES = ("card", "top", "current_color")

    def is_face_predicate(self, e) -> bool:
        """Is `e` a test of the card against the current color and the top card only, made of
        `==`/`!=` on colors and kinds, wildness, `and`/`or`/`not`: then it depends on the card's
        face, the color and the top card's face alone, and no face can make it fail."""
        k = e["kind"]
        if id(e) in self.c.kind_literals or k == "bool":
            return True
        if k == "name":
            n = e["name"]
            return (n in self.FACE_NAMES or n in self.c.color_id or n in self.c.kind_id) and not (
                n in self.c.counters or n in self.c.option_values)
        if k == "attr":
            return (e["name"] in ("color", "kind", "wild") and e["of"].get("kind") == "name"
                    and e["of"]["name"] in ("card", "top"))
        if k == "not":
            return self.is_face_predicate(e["of"])
        if k == "is":
            return e["of"].get("kind") == "name" and e["of"]["name"] in ("card", "top")
        if k == "binary":
            return e["op"] in ("and", "or", "==", "!=") and self.is_face_predicate(e["left"]) \
                and self.is_face_predicate(e["right"])
        return False

    def face_table(self, pred) -> str:
        """The table of face masks of a face predicate (is_face_predicate): by the current color
        + 1 and the top card's face, the faces it holds of. Made when the code is loaded."""
        text = self.expr(pred, {"card": "c", "top": "tf", "current_color": "col"})
        table = next((t for t, p_ in self.face_tables if p_ == text), None)
        if table is None:
            table = self.name_var("FMASK")
            self.face_tables.append((table, text))
        return table

    def counted_hand_call(self, e, scope: dict) -> str | None:
        """`P.hand.any(pred)`, `.has(kind)`, `.count(pred)` over a counted hand, by face masks."""
        of = e["of"]
        if not (self.counted and of.get("kind") == "attr" and of["name"] == "hand"):
            return None
        if "arg" in e and _reads(e["arg"], "just_drawn"):     # one card of a face: the faces cannot tell it
            raise NotCovered("`just_drawn` inside a hand query with hands counted per face")
        p = self.expr(of["of"], scope)
        n = e["name"]
        if n == "has":
            kind = self.expr(e["arg"], scope)
            return f"any(CKIND[c] == {kind} for c in FACES_IN(hm[{p}]))"
        var = self.name_var("c")
        if self.is_face_predicate(e["arg"]):
            # indexed by the top card only where the predicate reads it: `on round_start` has none yet
            top = "discard[-1]" if _reads(e["arg"], "top") else "0"
            faces = f"(hm[{p}] & {self.face_table(e['arg'])}[color + 1][{top}])"
        else:
            faces = f"hm[{p}]"
            pred = self.expr(e["arg"], dict(scope, card=var))
            if n == "any":        # each face once, in face order: as over the hand listed by face
                return f"any({pred} for {var} in FACES_IN({faces}))"
            faces = f"SUM_MASK({var} for {var} in FACES_IN({faces}) if {pred})"
        if n == "any":
            return f"({faces} != 0)"
        if n == "count":
            return f"sum(hc[{p}][{var}] for {var} in FACES_IN({faces}))"
        return None

    def call(self, e, scope: dict) -> str:
        n = e["name"]
        if "as" in e:
            raise NotCovered("a method that names its card (`count(c where ...)`)")
        counted = self.counted_hand_call(e, scope)
        if counted is not None:
            return counted
        of = self.expr(e["of"], scope)
        var = self.name_var("c")
        if n == "has":
            kind = self.expr(e["arg"], scope)
            return f"any(CKIND[{var}] == {kind} for {var} in {of})"
        inner = dict(scope, card=var)
        pred = self.expr(e["arg"], inner)
        if n == "any":
            return f"any({pred} for {var} in {of})"
        if n == "count":
            return f"sum(1 for {var} in {of} if {pred})"
        raise NotCovered(f"the method `.{n}()`")
