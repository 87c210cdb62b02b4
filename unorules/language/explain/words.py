"""The words of `explain`: expressions and actions of the rule language said in plain English
(`Words.expr`, `Words.action`). rulebook.py builds the pages from them."""
from __future__ import annotations

from unorules.language.ir import literal_value, may_be_fraction, sides_of

NAMES = {
    "me": "you", "next": "the next player", "previous": "the previous player", "dealer": "the dealer",
    "current_color": "the current color", "top": "the top card", "player_count": "the number of players",
    "streak": "the number of cards of that kind in a row on the pile", "clockwise": "play goes clockwise",
    "first_card": "the round's first card is on top", "just_drawn": "it was just drawn",
    "eliminated_count": "the number of players eliminated this round", "fewest_cards": "the fewest cards any other player holds",
    "most_cards": "the most cards any other player holds", "card": "the card", "target": "the attacked player",
    "attacker": "the attacker", "penalty": "the penalty", "legal": "the card was legal",
    "challenger": "the challenger", "chosen": "the chosen player", "revealed": "the revealed card",
    "candidate": "that player", "@this_card": "this card", "winner": "the round's winner", "turn_player": "the player about to play",
}
NEGATED = {"just_drawn": "it was not just drawn", "first_card": "the round's first card is no longer on top",
           "clockwise": "play goes counterclockwise"}
# actions on the table whose words name no player: a subject says how many times they happen
TABLE_ACTIONS = {"reverse", "set_color", "cycle_color", "pass_hands", "shuffle_hands", "flip", "clear_pile",
                 "set_aside_pile", "reveal", "redraw", "add_penalty", "double_penalty", "pass_attack", "cancel_attack", "resolve_attack",
                 "take_back", "put_in_front", "discard_from_front", "move_to_hand"}
COMPOUND = {"if", "chance", "perform", "attack", "group", "repeat"}     # actions that hold blocks of actions
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
COMPARE = {"==": "is", "!=": "is other than", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
NEGATED_COMPARE = {"==": "is not", "!=": "is not other than", "<": "is not less than", "<=": "is not at most",
                   ">": "is not more than", ">=": "is not at least"}


# How tightly a phrase binds, loosest first: an operand looser than its place is put in parentheses,
# so two groupings of the same words never read alike (`(a or b) and c` against `a or b and c`).
LOOSE, OR, AND, COMPARE_P, ADD, MUL, NEG, ATOM = range(8)
CATEGORY_WORDS = {"number": "a number card", "action": "an action card", "wild": "a wild card"}
NOT_WILD = {"action": " (wilds are not action cards)"}
BINDING = {"or": OR, "and": AND, "+": ADD, "-": ADD, "*": MUL, "/": MUL, "%": MUL, **{op: COMPARE_P for op in COMPARE}}


class Words:
    def __init__(self, ir: dict):
        self.ir = ir
        self.options = {o["name"]: o["value"]["value"] for o in ir.get("options", [])}
        self.counters = {c["name"]: c for c in ir.get("counters", [])}
        self.loops: list[str] = []          # the names of the loops being said, outermost first

    # -- expressions ----------------------------------------------------------------------------
    def expr(self, e) -> str:
        return self.phrase(e)[0]

    def operand(self, e, binding: int) -> str:
        """`e` as an operand of a phrase that binds as tightly as `binding`: in parentheses when
        it binds more loosely."""
        text, own = self.phrase(e)
        return f"({text})" if own < binding else text

    def loop_player(self, name: str) -> str:
        """A loop's player in words: its name never appears in prose."""
        depth = len(self.loops) - 1 - self.loops[::-1].index(name)
        if len(self.loops) == 1:
            return "that player"
        ordinal = ("first", "second", "third", "fourth")      # loops nest at most 4 deep (nesting.py)
        return f"the {ordinal[depth] if depth < len(ordinal) else f'{depth + 1}th'} such player"

    def over(self, e, bound: list[str], subject: bool = False) -> str:
        """The players of a loop (`each other`, `each player`), with its condition; the loop's name
        is pushed on `bound` for what follows it. As an action's subject the condition is set
        apart in parentheses, so that the verb after it reads as the subject's."""
        text = "every other player" if e["kind"] == "each_other" else "every player"
        if "as" in e:
            self.loops.append(e["as"])
            bound.append(e["as"])
        if "where" in e:
            text += f" (those for whom {self.expr(e['where'])})" if subject else \
                f" for whom {self.operand(e['where'], AND)}"
        return text

    def phrase(self, e) -> tuple[str, int]:
        """An expression in words, and how tightly the phrase binds."""
        k = e["kind"]
        if k == "number":
            return str(e["value"]), ATOM
        if k == "bool":
            return ("always" if e["value"] else "never"), ATOM
        if k == "string":
            return f'"{e["value"]}"', ATOM
        if k == "name":
            n = e["name"]
            if n in self.loops:
                return self.loop_player(n), ATOM
            if n in self.options:
                v = self.options[n]
                return n.replace("_", " ") + ("" if isinstance(v, bool) else f" ({v})"), ATOM
            if n in self.counters:
                c = self.counters[n]
                return (f"the `{n}` is set", COMPARE_P) if c["kind"] == "flag" else (f"the `{n}`", ATOM)
            return NAMES.get(n, n if n.isdigit() else n.replace("_", " ") if n not in self.card_names() else f"`{n}`"), ATOM
        if k in ("each_other", "each_player"):
            bound: list[str] = []
            try:
                return self.over(e, bound), LOOSE
            finally:
                del self.loops[len(self.loops) - len(bound):]
        if k == "attr":
            return self.attribute(e)
        if k == "call":
            of = self.operand(e["of"], ATOM)
            holder = "you hold" if of == "your hand" else of.replace("'s hand", " holds")
            fe = e["of"]
            if fe.get("kind") == "attr" and fe.get("name") == "front":     # `P.front.has(K)`: P has K in front of them
                owner = self.operand(fe["of"], ATOM)
                holder = "you have" if owner == "you" else f"{owner} has"
                text, binding = self.holding(e, holder, f"front of {owner}")
                if e["name"] == "count":
                    return text, binding
                return text + (" in front of you" if owner == "you" else " in front of them"), binding
            return self.holding(e, holder, of)
        if k == "conditional":
            return (f"{self.operand(e['then'], OR)} if {self.operand(e['if'], OR)}, "
                    f"else {self.operand(e['else'], OR)}"), LOOSE
        if k == "aggregate":
            bound: list[str] = []
            try:
                over = self.over(e["over"], bound)
                if e["op"] == "count":
                    return f"the number of {over.replace('every ', '', 1).replace('player', 'players', 1)}", LOOSE
                of = self.operand(e["of"], ADD)
            finally:
                del self.loops[len(self.loops) - len(bound):]
            bare = of.removeprefix("the ")
            return {"sum": f"the sum of {of} over {over}", "max": f"the largest {bare} among {over}",
                    "min": f"the smallest {bare} among {over}",
                    "most": f"the one of {over} with the largest {bare}",
                    "fewest": f"the one of {over} with the smallest {bare}"}[e["op"]], LOOSE
        if k == "not":
            return self.negation(e["of"])
        if k == "is":
            return f"{self.operand(e['of'], ATOM)} is {CATEGORY_WORDS[e['category']]}{NOT_WILD.get(e['category'], '')}", \
                COMPARE_P
        if k == "neg":
            return f"minus {self.operand(e['of'], NEG)}", NEG
        if k == "binary":
            op = e["op"]
            binding = BINDING[op]
            left = self.operand(e["left"], binding if op not in COMPARE else binding + 1)
            right = self.operand(e["right"], binding + 1)
            if op in COMPARE:
                return f"{left} {COMPARE[op]} {right}", binding
            if op in ("and", "or"):
                return f"{left} {op} {right}", binding
            if op == "/" and not may_be_fraction(e, self.options):
                return f"{left} divided by {right} (rounded down)", binding
            return f"{left} {ARITHMETIC[op]} {right}", binding
        return "?", ATOM

    def holding(self, e, holder, of) -> tuple[str, int]:
        """`H.any(...)`, `H.count(...)`, `H.has(K)` of a hand or a front (`of`), held by `holder`."""
        arg_e = e.get("arg")
        if "as" in e and arg_e:         # `count(c where ...)`: c is "it", the card outside is "this card"
            arg_e = _renamed(arg_e, {"card": "@this_card", e["as"]: "card"})
        if e["name"] == "any" and arg_e and arg_e["kind"] == "binary" and arg_e["op"] == "==" \
                and arg_e["left"] == {"kind": "attr", "of": {"kind": "name", "name": "card"}, "name": "color"}:
            return f"{holder} a card of {self.operand(arg_e['right'], ATOM)}", COMPARE_P
        if e["name"] in ("any", "count") and arg_e and arg_e["kind"] == "is" \
                and arg_e["of"] == {"kind": "name", "name": "card"}:
            sort = CATEGORY_WORDS[arg_e["category"]]
            if e["name"] == "any":
                return f"{holder} {sort}{NOT_WILD.get(arg_e['category'], '')}", COMPARE_P
            return f"the number of {sort.split(' ', 1)[1]}s{NOT_WILD.get(arg_e['category'], '')} in {of}", LOOSE
        arg = self.expr(arg_e).replace("the card", "it") if arg_e else ""
        if e["name"] == "any":
            return f"{holder} a card for which {arg}", LOOSE
        if e["name"] == "count":
            return f"the number of cards in {of} for which {arg}", LOOSE
        if e["name"] == "has":                        # a kind named (`skip`, 7) takes an article; any other kind its noun
            if arg == "it":
                return f"{holder} a card of that kind", COMPARE_P
            return (f"{holder} a {arg}" if arg.startswith("`") or arg.isdigit() else
                    f"{holder} a card of {arg}"), COMPARE_P
        return "?", ATOM

    def attribute(self, e) -> tuple[str, int]:
        of = self.operand(e["of"], ATOM)
        name = e["name"]
        mine = of == "you"
        if name in self.counters:
            c = self.counters[name]
            whose = "your" if mine else f"{of}'s"
            return (f"{whose} `{name}` is set", COMPARE_P) if c["kind"] == "flag" else (f"{whose} `{name}`", ATOM)
        if name == "front":
            return f"the cards in front of {of}", ATOM
        if e["of"].get("kind") == "attr" and e["of"].get("name") == "front" and name in ("size", "points"):
            owner = self.operand(e["of"]["of"], ATOM)
            return (f"the number of cards in front of {owner}" if name == "size"
                    else f"the points of the cards in front of {owner}"), ATOM
        if name in ("hand", "score", "team", "partner"):
            return (f"your {name}" if mine else f"{of}'s {name}"), ATOM
        if name == "place":
            return ("your place" if mine else f"{of}'s place") + " this round (0 if not out)", ATOM
        if name == "seat":
            return f"the seat of {of}", ATOM
        if name == "points":
            return f"the points in {of}", ATOM
        if name in ("next", "previous"):
            return f"the player {'after' if name == 'next' else 'before'} {of}", ATOM
        if name == "size":
            return f"the number of cards in {of}", ATOM
        if name == "color":
            return f"the color of {of}", ATOM
        if name == "kind":
            return f"the kind of {of}", ATOM
        if name == "rank":
            return f"the number on {of}", ATOM
        if name == "wild":
            return f"{of} is wild", COMPARE_P
        return f"{of}'s {name}", ATOM

    def negation(self, inner) -> tuple[str, int]:
        k = inner["kind"]
        if k == "call" and inner["name"] in ("any", "has"):
            text, binding = self.phrase(inner)
            for sort in CATEGORY_WORDS.values():          # `any(card is action)`: "hold no action card"
                if text.endswith(" " + sort):
                    return text.removesuffix(sort) + "no " + sort.split(" ", 1)[1], binding
            return text.replace(" a card", " no card", 1).replace(" hold a ", " hold no ", 1) \
                .replace(" have a ", " have no ", 1).replace(" has a ", " has no ", 1), binding
        if k == "name" and inner["name"] in self.options:
            return f"{inner['name'].replace('_', ' ')} is off", COMPARE_P
        if k == "attr" and inner["name"] == "wild":
            return f"{self.operand(inner['of'], ATOM)} is not wild", COMPARE_P
        if k == "is":
            return f"{self.operand(inner['of'], ATOM)} is not {CATEGORY_WORDS[inner['category']]}", COMPARE_P
        if (k == "attr" and inner["name"] in self.counters or k == "name" and inner["name"] in self.counters) \
                and self.counters[inner["name"]]["kind"] == "flag":
            return self.expr(inner).removesuffix(" is set") + " is not set", COMPARE_P
        if k == "binary" and inner["op"] in NEGATED_COMPARE:
            left = self.operand(inner["left"], COMPARE_P + 1)
            right = self.operand(inner["right"], COMPARE_P + 1)
            return f"{left} {NEGATED_COMPARE[inner['op']]} {right}", COMPARE_P
        if k == "name" and inner["name"] in NEGATED:
            return NEGATED[inner["name"]], COMPARE_P
        return f"it is not so that {self.operand(inner, COMPARE_P)}", LOOSE

    def card_names(self):
        return {c["names"][0] for c in self.ir.get("cards", [])}

    def colors(self):
        return {c for s in sides_of(self.ir) for c in s["colors"]}

    # -- actions --------------------------------------------------------------------------------
    def subject(self, a, default, bound: list[str]):
        """Who does action `a`: its subject in words (a loop's name is pushed on `bound` for the
        action's body), or `default`."""
        if "subject" not in a:
            return default
        subj = a["subject"]
        if subj["kind"] not in ("each_other", "each_player"):
            return self.expr(subj)
        return self.over(subj, bound, subject=True)

    @staticmethod
    def possessive(subject: str) -> str:
        if subject == "you":
            return "your"
        if subject == "they" or " who" in subject:
            return "their"
        return f"{subject}'s"

    @staticmethod
    def verb(subject, base, third):
        plural = subject in ("you", "they") or subject.startswith("every")
        if subject.startswith("every"):
            return third
        return base if plural else third

    def count(self, e, noun="card"):
        v = literal_value(e)
        if isinstance(v, (int, float)):
            return f"{v} {noun}{'' if v == 1 else 's'}"
        return f"as many {noun}s as {self.expr(e)}"

    def action(self, a, S="you") -> str:
        bound: list[str] = []
        try:
            return self._action(a, S, bound)
        finally:
            del self.loops[len(self.loops) - len(bound):]

    def block(self, actions, S) -> str:
        """A block inside an action (a branch, an outcome, an attack's effect): in parentheses
        unless it is one plain action, so where it ends is always shown."""
        if not actions:
            return "nothing happens"
        text = self.actions(actions, S)
        plain = len(actions) == 1 and actions[0]["kind"] not in COMPOUND
        return text if plain else f"({text})"

    def _action(self, a, S, bound) -> str:
        s = self.subject(a, S, bound)
        text = self._said(a, S, s)
        if "subject" in a and a["kind"] in TABLE_ACTIONS:
            text = f"for {s}: {text}"      # an action on the table, done once for each subject
        return text

    def _said(self, a, S, s) -> str:
        k = a["kind"]
        if k == "group":
            return (f"for {s}: " if "subject" in a else "") + self.block(a["actions"], "they" if "subject" in a else S)
        if "subject" in a and k in ("if", "chance", "repeat"):     # a block runs once for each of its subjects
            inner = {key: v for key, v in a.items() if key != "subject"}
            return f"for {s}: {self._said(inner, 'they', 'they')}"
        v = lambda base, third: f"{s} {self.verb(s, base, third)}"   # noqa: E731
        their = "your" if s == "you" else "their"
        whose = self.possessive(s) if "subject" not in a or not s.startswith("every") else "their"
        if k == "draw":
            n = "cards equal to the penalty" if a["count"] == {"kind": "name", "name": "penalty"} else self.count(a["count"])
            return f"{v('draw', 'draws')} {n}"
        if k == "draw_until_color":
            return f"{v('draw', 'draws')} cards until one of {self.expr(a['color'])} comes (wilds do not count)"
        if k == "draw_until_playable":
            return f"{v('draw', 'draws')} cards until a playable one comes"
        if k == "lose_turn":
            return f"{v('lose', 'loses')} {their} next turn"
        if k == "play_again":
            return f"{v('play', 'plays')} again"
        if k == "reverse":
            return "the direction of play reverses"
        if k == "choose_color":
            return f"{v('name', 'names')} the next color"
        if k == "set_color":
            return f"the color becomes {self.expr(a['color'])}"
        if k == "cycle_color":
            return "the color moves on to the next one in the fixed cycle of colors, in the direction of play"
        if k == "choose_player":
            who = "another player" if a["other"] else "a player"
            cond = f" such that {self.expr(a['where'])}" if "where" in a else ""
            name = a.get("as", "chosen").replace("_", " ")
            label = name if name.endswith("player") else f"{name} player"
            return f"{v('choose', 'chooses')} {who}{cond} (the {label})" if "as" in a else \
                f"{v('choose', 'chooses')} {who}{cond}"
        if k == "swap_hands":
            return f"{v('swap', 'swaps')} hands with {self.expr(a['with'])}"
        if k == "pass_hands":
            where = {"clockwise": "to the next player clockwise (to the next seat number)",
                     "counterclockwise": "to the next player counterclockwise (to the previous seat number)"}.get(
                a.get("direction"), "to the next player in the direction of play")
            return f"every player passes their hand {where}"
        if k == "shuffle_hands":
            return "all hands are gathered, shuffled and dealt out one at a time, starting with the next player"
        if k == "flip":
            mode = self.options.get(a.get("pile"), a.get("pile", "whole"))
            if mode == "top":
                return ("every card turns over to its other side: hands, the draw pile and the discard pile, which "
                        "keeps its order (its top card now shows its other face)")
            return "every card turns over to its other side: hands, the draw pile, and the discard pile as a whole"
        if k == "clear_pile":
            return "the discard pile's cards, all but its top card, go under the draw pile"
        if k == "set_aside_pile":
            return "the discard pile's cards, all but its top card, are set aside, out of play until the round ends"
        if k == "take_pile":
            return f"{v('take', 'takes')} the discard pile's cards, all but its top card, into {their} hand"
        if k == "win_round":
            return f"{v('win', 'wins')} the round (once this play is over)"
        if k == "do":
            return f"{s} {self.verb(s, 'follow', 'follows')} the rule `{a['rule']}`"
        if k == "may_play":
            which = "any card" if a.get("any") else "a playable card"
            cond = f" for which {self.expr(a['where'])}".replace("the card", "it") if "where" in a else ""
            return f"{v('may', 'may')} play one more card: {which}{cond}"
        if k == "give":
            which = f" (one for which {self.expr(a['where'])})".replace("the card", "it") if "where" in a else ""
            once = (", all at the same time (a card just received is not passed on)" if a.get("at_once") else "")
            return f"{v('give', 'gives')} {self.count(a['count'])} of {their} choice{which} to {self.expr(a['to'])}{once}"
        if k == "take":
            which = f" (one for which {self.expr(a['where'])})".replace("the card", "it") if "where" in a else ""
            return (f"{v('look', 'looks')} at the hand of {self.expr(a['from'])} and {self.verb(s, 'take', 'takes')} "
                    f"{self.count(a['count'])} of {their} choice{which} from it")
        if k == "show_hand":
            whose = "your" if s == "you" else "their"
            until = f"until {whose} next turn is over (a skipped turn counts)" if a["until"] == "next_turn" \
                else "until the round ends"
            return f"{v('play', 'plays')} with an open hand: every player sees {whose} cards {until}"
        if k == "put_in_front":
            return f"{self.expr(a['card'])} is put in front of {self.expr(a['to'])}, face up (out of play until the round ends or a rule moves it)"
        if k in ("discard_from_front", "move_to_hand"):
            owner = self.expr(a["from"]["of"])
            what = a["what"]
            named = f"a `{what['name']}`" if what.get("kind") == "name" and what["name"] in self.card_names() \
                else f"a `{what['value']}`" if what.get("kind") == "number" else self.expr(what)
            there = "in front of you" if owner == "you" else f"in front of {owner}"
            if k == "discard_from_front":
                return f"{named} {there} (if there is one) goes onto the discard pile, under its top card"
            return f"{named} {there} (if there is one) goes back into {'your' if owner == 'you' else 'their'} hand"
        if k == "look_at":
            return f"{v('look', 'looks')} at {self.expr(a['hand'])} (only {'you' if s == 'you' else 'they'} see it)"
        if k == "choose_option":
            return f"{v('choose', 'chooses')} one of {', '.join(a['options'][:-1])} or {a['options'][-1]} (the {a['as']})"
        if k == "choose_number":
            if "low" in a:
                return f"{v('choose', 'chooses')} a number from {self.expr(a['low'])} to {self.expr(a['high'])} ({a['as']})"
            return f"{v('name', 'names')} a number ({a['as']})"
        if k == "choose_kind":
            cond = f" such that {self.expr(a['where'])}".replace("that player", "it") if "where" in a else ""
            return f"{v('name', 'names')} a card kind{cond} ({a['as']})"
        if k in ("set_counter", "add_counter", "clear_counter"):
            c = self.counters.get(a["counter"], {})
            name = f"`{a['counter']}`"
            if c.get("per") == "player":
                name = f"{whose} {name}"
                if "subject" in a and s.startswith("every"):
                    name = f"for {s}: {name}"
            else:
                name = f"for {s}: the {name}" if "subject" in a else f"the {name}"
            if k == "set_counter":
                return f"{name} becomes {self.expr(a['value'])}" if "value" in a else f"{name} is set"
            if k == "add_counter":
                return f"{name} {self.change(a['amount'])}"
            return f"{name} is cleared"
        if k == "give_hand":
            return f"{v('give', 'gives')} all {their} cards to {self.expr(a['to'])}"
        if k == "exchange":
            return f"{s} and {self.expr(a['with'])} each choose one card and exchange them"
        if k == "discard_all":
            what = a["what"]
            if what.get("kind") == "name" and (what["name"] in self.colors() or what["name"] in self.card_names()):
                named = what["name"] if what["name"] in self.colors() else f"`{what['name']}`"
                return f"{v('discard', 'discards')} all {their} {named} cards"
            if what.get("kind") == "number":
                return f"{v('discard', 'discards')} all {their} `{what['value']}` cards"
            return f"{v('discard', 'discards')} all {their} cards of {self.expr(what)}"
        if k == "score":
            return f"{v('score', 'scores')} {self.count(a['amount'], 'point')}"
        if k == "set_score":
            who = self.expr(a["target"])
            whose = "your" if who == "you" else f"{who}'s"
            return f"{whose} score becomes {self.expr(a['value'])}"
        if k == "let":
            return f"`{a['as']}` stands for {self.expr(a['value'])} (as it is now)"
        if k == "eliminate":
            be = self.verb(s, "are", "is")
            if a.get("from") == "round":
                return (f"{s} {be} out of this round (never the last player left in it, who wins it; back in the next; "
                        f"{self.possessive(s)} hand goes under the top card of the discard pile)")
            return (f"{s} {be} out of the game, for every later round too (never the last player left in the round, who "
                    f"wins it; {self.possessive(s)} hand goes under the top card of the discard pile)")
        if k == "swap_seats":
            return f"{v('swap', 'swaps')} seats with {self.expr(a['with'])} (hands and scores move with the players)"
        if k == "reveal":
            return "the top card of the draw pile is turned onto the discard pile (the revealed card)"
        if k == "redraw":
            return "it goes back into the draw pile, the pile is shuffled, and another card is turned up"
        if k == "attack":
            t = self.expr(a["target"])
            pen = f" with a penalty of {self.expr(a['penalty'])}" if "penalty" in a else ""
            return f"{t} {self.verb(t, 'are', 'is')} attacked{pen}: unless the attack is answered, " + self.block(a["actions"], "they")
        if k == "add_penalty":
            return f"the penalty {self.change(a['amount'])}"
        if k == "pass_attack":
            return f"the attack passes to {self.expr(a['to'])}"
        if k == "cancel_attack":
            return "the attack is called off"
        if k == "double_penalty":
            return "the penalty doubles"
        if k == "resolve_attack":
            return "the attack takes effect"
        if k == "take_back":
            return "the attacking card goes back to its player's hand"
        if k == "if":
            parts = []
            for i, br in enumerate(a["branches"]):
                parts.append(f"{'if' if i == 0 else 'otherwise, if'} {self.expr(br['when'])}, {self.block(br['then'], S)}")
            if a.get("otherwise"):
                parts.append(f"otherwise, {self.block(a['otherwise'], S)}")
            return "; ".join(parts)
        if k == "chance":
            outs = a["outcomes"]
            weights = [o.get("weight", {"kind": "number", "value": 1}) for o in outs]
            values = [literal_value(w) for w in weights]
            known = all(isinstance(v, (int, float)) for v in values)
            total = sum(values) if known else 0
            bits = []
            for o, w, v in zip(outs, weights, values):
                odds = f" ({v}/{total})" if known and total else f" (weight {self.expr(w)})"
                bits.append(f"on {o['name'].replace('_', ' ')}{odds}, {self.block(o['actions'], S)}")
            return f"by chance ({a['name'].replace('_', ' ')}): " + "; ".join(bits)
        if k == "repeat":
            return (f"{self.block(a['actions'], S)}, again and again until {self.expr(a['until'])} "
                    f"(at most {a['most']} times)")
        if k == "perform":
            name = a["name"].replace("_", " ")
            sim = f" (in simulation they succeed with chance {self.expr(a['chance'])})" if "chance" in a else ""
            ok = self.block(a["actions"], "they")
            bad = self.block(a.get("otherwise", []), "they")
            return f"{v('perform', 'performs')} {name}{sim}: if they succeed, {ok}; if they fail, {bad}"
        return k.replace("_", " ")

    def change(self, amount) -> str:
        v = literal_value(amount)
        if isinstance(v, (int, float)) and v < 0:
            return f"shrinks by {-v}"
        return f"grows by {self.expr(amount)}"

    def actions(self, actions, S="you") -> str:
        return "; then ".join(self.action(a, S) for a in actions)


def _renamed(e, names: dict):
    """An expression with the names in `names` renamed (a copy; what `explain` says of a method
    that names its card)."""
    if isinstance(e, dict):
        if e.get("kind") == "name" and e.get("name") in names:
            return {**e, "name": names[e["name"]]}
        return {k: _renamed(v, names) for k, v in e.items()}
    if isinstance(e, list):
        return [_renamed(v, names) for v in e]
    return e
