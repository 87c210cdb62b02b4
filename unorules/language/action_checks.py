"""The checker's half that walks actions: what each action needs (its types, counts, the names
it binds) and where it means something (an attack action outside an attack, `redraw` outside
`on turn_up`). checker.Checker mixes it in beside ExprTypes and NestingChecks."""
from __future__ import annotations

from unorules.errors import did_you_mean
from .expression_types import _a
from .ir import constant, may_be_fraction, walk
from .vocab import ATTACK_ACTIONS, GLOBAL_NAMES, SCOPED_NAMES

WHOLE_NUMBERS = {"draw": "count", "give": "count", "take": "count", "attack": "penalty", "add_penalty": "amount"}
MAX_REPEAT = 100           # passes of one `repeat` at most (docs/language.md, Limits)
CARDLESS = ("trigger", "declaration", "cut", "attack hook", "turn's draw")   # where no card is in play


class ActionChecks:
    def attack_through(self, rule: str) -> tuple[str, ...] | None:
        """The rules from `rule` to one that attacks (following the rules each does), or None."""
        stack, seen = [(rule, (rule,))], {rule}
        while stack:
            name, path = stack.pop()
            for a in walk(self.rules[name]["actions"]):
                if a["kind"] == "attack":
                    return path
                if a["kind"] == "do" and a["rule"] in self.rules and a["rule"] not in seen:
                    seen.add(a["rule"])
                    stack.append((a["rule"], path + (a["rule"],)))
        return None

    def actions(self, actions, scope, context):
        scope = dict(scope)
        for a in actions:
            self.action(a, scope, context)

    def action(self, a, scope, context):
        k = a["kind"]
        if "subject" in a:
            subj = a["subject"]
            if subj["kind"] not in ("each_other", "each_player"):
                self.expect(subj, "player", scope)
            elif "as" in subj:
                # the loop's name holds inside this action only (its blocks included)
                self.new_name(subj["as"], subj, "as", scope, "the loop's player")
                scope = {**scope, subj["as"]: "player"}
                if "where" in subj:
                    self.expect(subj["where"], "bool", scope)
            if k == "attack":
                self.error("U0403", "an attack is made by the card's player: it takes no subject", subj, None,
                           "a subject on `attack`", "name the attacked player after `attack`: `attack next ...`")
        if k in ATTACK_ACTIONS and context not in ("reaction", "challenge", "attack hook"):
            self.error("U0403", f"`{k.replace('_', ' ')}` only means something while an attack is pending",
                       a, None, "no attack is pending here",
                       "use it inside `react to ...`, `challenge:` or `on attacked: ...`")
        if k == "attack" and context in CARDLESS:
            self.error("U0403", f"an attack needs a card to attack with: it belongs in a card's rules or a `play` trigger, "
                       f"not in a {context}",
                       a, None, "no card here", "give a card the attack, or make the rule act directly: `next draw 2`")
        if k == "redraw" and context != "turn_up":
            self.error("U0403", "`redraw` only means something in `on turn_up`", a)
        for key, typ in (("count", "number"), ("amount", "number"), ("penalty", "number"),
                         ("color", "color"), ("with", "player"), ("to", "player"), ("target", "player")):
            if key in a and isinstance(a[key], dict):
                self.expect(a[key], typ, scope)
        if k in ("draw", "give", "take") and isinstance(a.get("count"), dict):
            self.count_value(a["count"], k)
        key = WHOLE_NUMBERS.get(k)
        if key and isinstance(a.get(key), dict):
            self.whole_number(a[key], "a count" if key == "count" else "a penalty")
        if k in ("give", "take"):
            if "where" in a:
                self.expect(a["where"], "bool", {**scope, "card": "card"})
            if k == "take":
                self.expect(a["from"], "player", scope)
        elif k == "discard_all":
            self.kind_or(a, "color", "`discard all` takes a color or a card kind", scope)
        elif k == "put_in_front":
            self.expect(a["card"], "card", scope)
        elif k in ("discard_from_front", "move_to_hand"):
            verb = "discard" if k == "discard_from_front" else "move"
            self.players_cards(a["from"], "front", f"`{verb} ... from` takes the cards in front of a player: "
                               f"`{verb} shield from me.front`", scope, "not a player's front")
            self.kind_or(a, "card", f"`{verb}` takes a card or a card kind", scope)
        elif k == "look_at":
            self.players_cards(a["hand"], "hand", "`look at` takes a player's hand: `look at chosen.hand`", scope)
        elif k in ("set_counter", "add_counter", "clear_counter"):
            self.check_memory_action(a, scope)
        elif k in ("choose_option", "choose_number", "choose_kind"):
            if k == "choose_option":
                if len(set(a["options"])) != len(a["options"]):
                    self.error("U0202", "an option is given twice", a, "options")
                kind = "text"
            elif k == "choose_number":
                kind = "number" if "low" in a else "kind"
                for key in ("low", "high"):
                    if key in a:
                        self.expect(a[key], "number", scope)
                if "low" not in a and not any(n.isdigit() for n in self.cards):
                    self.error("U0403", "there are no number cards to name", a)
            else:
                kind = "kind"
                if "where" in a:
                    self.expect(a["where"], "bool", {**scope, "candidate": "kind"})
            self.new_name(a["as"], a, "as", scope, "the choice")
            scope[a["as"]] = kind
            if k == "choose_option":
                self.text_values[a["as"]] = list(a["options"])
        if k == "choose_player":
            if "where" in a:
                self.expect(a["where"], "bool", {**scope, "candidate": "player"})
            name = a.get("as", "chosen")
            if name != "chosen":
                self.new_name(name, a, "as", scope, "the chosen player")
            scope[name] = "player"
        elif k == "reveal":
            scope["revealed"] = "card"
        elif k == "let":
            if "subject" in a:
                self.error("U0403", "`let` names a value for the rest of its block: it takes no subject", a["subject"],
                           None, "a subject on `let`", "give the value the player instead: `let n = chosen.hand.size`")
            t = self.type_of(a["value"], scope)
            self.new_name(a["as"], a, "as", scope, "the value")
            scope[a["as"]] = t
        elif k == "set_score":
            self.expect(a["value"], "number", scope)
        elif k == "attack":
            inner = {**scope, "target": "player", "attacker": "player", "penalty": "number"}
            self.actions(a["actions"], inner, "attack")
        elif k == "group":
            self.actions(a["actions"], scope, context)
        elif k == "do":
            if a["rule"] not in self.rules:
                self.error("U0201", f"no rule named `{a['rule']}`", a, "rule", "not a rule",
                           did_you_mean(a["rule"], self.rules) or f"declare it: `rule {a['rule']}: ...`")
            elif context in CARDLESS:
                path = self.attack_through(a["rule"])
                if path:
                    self.error("U0403", f"rule `{a['rule']}` makes an attack ({' -> '.join(path)} attacks), and an "
                               f"attack needs a card to attack with: here, in a {context}, no card is in play",
                               a, "rule", "no card here",
                               "do the rule from a card's rules or a `play` trigger, or make it act directly: `next draw 2`")
        elif k == "may_play":
            if "where" in a:
                self.expect(a["where"], "bool", {**scope, "card": "card"})
        elif k == "flip" and "pile" in a:
            self.flip_mode(a)
        if k in ("choose_color", "set_color", "cycle_color", "draw_until_color") and not self.colors:
            self.error("U0403", f"`{k.replace('_', ' ')}` needs colors, and this rulebook has none", a)
        elif k == "if":
            for br in a["branches"]:
                self.expect(br["when"], "bool", scope)
                self.actions(br["then"], scope, context)
            if a.get("otherwise"):
                self.actions(a["otherwise"], scope, context)
        elif k == "chance":
            names = set()
            for o in a["outcomes"]:
                if o["name"] in names:
                    self.error("U0202", f"outcome `{o['name']}` is given twice", o, "name")
                names.add(o["name"])
                if "weight" in o:
                    self.expect(o["weight"], "number", scope)
                    try:
                        w = constant(o["weight"], self.option_values)
                    except ZeroDivisionError:
                        w = None
                    if w is not None and w < 0:
                        self.error("U0303", f"a weight must not be negative, not {w}", o["weight"], None,
                                   "negative weight", "write 0 for an outcome that never happens")
                self.actions(o["actions"], scope, context)
        elif k == "repeat":
            self.expect(a["until"], "bool", scope)
            if "most" not in a:
                self.error("U0701", "a `repeat` needs a bound the checker can see", a, None, "may never end",
                           f"say how many times at most: `repeat until ... at most 10 {{ ... }}` (up to {MAX_REPEAT})")
            elif not 1 <= a["most"] <= MAX_REPEAT:
                self.error("U0303", f"a `repeat` runs from 1 to {MAX_REPEAT} times at most, not {a['most']}", a, "most",
                           "out of range", f"write a bound from 1 to {MAX_REPEAT}")
            self.actions(a["actions"], scope, context)
        elif k == "perform":
            if "chance" in a:
                self.expect(a["chance"], "number", scope)
                self.chance_value(a["chance"])
            self.actions(a["actions"], scope, context)
            if a.get("otherwise"):
                self.actions(a["otherwise"], scope, context)

    def kind_or(self, a, other, message, scope):
        """An action's `what`: a card kind (recorded for the compiler: `discard all 7` names the
        kind 7) or a value of type `other`."""
        t = "kind" if self.kind_literal(a["what"]) else self.type_of(a["what"], scope)
        if t == "kind":
            self.kind_actions.add(id(a))
        elif t not in (None, other):
            self.error("U0301", f"{message}, not {_a(t)}", a["what"], None)

    def players_cards(self, e, name, message, scope, label=""):
        """`P.hand` or `P.front` where an action takes a player's cards (`look at`, `discard ... from`)."""
        if e.get("kind") != "attr" or e.get("name") != name:
            self.error("U0301", message, e, None, label)
        else:
            self.expect(e, "hand", scope)

    def flip_mode(self, a):
        """`flip pile whole|top`, or the name of a text option whose value is one of them."""
        mode = a["pile"]
        if mode in ("whole", "top"):
            return
        if mode in self.options:
            if self.options[mode] != "text" or self.option_values[mode] not in ("whole", "top"):
                self.error("U0303", f"option `{mode}` must be \"whole\" or \"top\" to say how the pile turns, "
                           f"not {self.option_values[mode]!r}", a, "pile", "not a way to turn the pile",
                           f'declare it `option {mode} = "whole"`')
            return
        self.error("U0201", f"`flip pile {mode}`: the pile turns `whole` or `top` (or as a text option says)", a, "pile",
                   "not whole or top", did_you_mean(mode, ["whole", "top", *self.options]))

    def count_value(self, e, verb):
        try:
            n = constant(e, self.option_values)
        except ZeroDivisionError:
            return                         # the division itself is reported
        if n is not None and n < 0:
            self.error("U0303", f"a player cannot {verb} {n} cards", e, None, "a negative count",
                       "write a count of 0 or more")

    def whole_number(self, e, what):
        """Cards are drawn, given and taken whole: a count that can be a fraction is refused."""
        if may_be_fraction(e, self.option_values):
            self.error("U0303", f"{what} of cards is a whole number, and this can be a fraction", e, None,
                       "can be a fraction", "write a whole number; a division of whole numbers rounds down "
                       "(`me.hand.size / 2` is 1 for 3 cards)")

    def chance_value(self, e):
        if e.get("kind") == "name" and e["name"] in self.options:
            return                         # an option's value is checked where it is declared
        try:
            p = constant(e, self.option_values)
        except ZeroDivisionError:
            return
        if p is not None and not 0 <= p <= 1:
            self.error("U0303", f"a chance must lie between 0 and 1, not {p}", e, None, "not a chance",
                       "write a value from 0 to 1 (0.25 is one time in four)")

    def new_name(self, name, node, key, scope, what):
        """A name the rule gives (`as NAME`) must not hide one that already has a meaning."""
        if name in GLOBAL_NAMES or name in SCOPED_NAMES or name in self.colors or name in self.cards \
                or name in self.options or name in self.counters or name in scope:
            self.error("U0202", f"`{name}` already has a meaning", node, key, "taken",
                       f"choose another name for {what}")

    def check_memory_action(self, a, scope):
        name = a["counter"]
        c = self.counters.get(name)
        if c is None:
            self.error("U0201", f"no counter or flag `{name}`", a, "counter", "not declared",
                       did_you_mean(name, self.counters) or f"declare it: `counter {name}` or `flag {name}`")
            return
        k = a["kind"]
        if k == "add_counter":
            if c["kind"] == "flag":
                self.error("U0301", f"`{name}` is a flag: set or clear it, do not add to it", a, "counter")
            self.expect(a["amount"], "number", scope)
        elif k == "set_counter":
            if "value" in a:
                self.expect(a["value"], self.counter_type(name), scope)
            elif c["kind"] == "counter":
                self.error("U0301", f"`set {name}` needs a value: `set {name} to N`", a, "counter")
