"""Stage 3: semantic checks of a merged rulebook, the ones a schema cannot make.

Unknown and duplicate names (cards, colours, sides, events, options), expression types, names used
where they are not bound, actions used where they mean nothing, deck sanity (colours, sides, enough
cards to deal), triggers that re-trigger themselves without bound, conflicting rule modules.
"""
from __future__ import annotations

from .errors import Diagnostic, did_you_mean
from .vocab import (ATTACK_ACTIONS, ATTRIBUTES, CARD_EVENTS, EMITS, GLOBAL_NAMES, METHODS,
                    SCOPED_NAMES, TRIGGER_EVENTS)

DEFAULT_PLAYERS = (2, 10)
DEFAULT_HAND = 7
MAX_DECK = 5000           # cards in one box; more is refused (memory and time stay bounded)


def sides_of(ir: dict) -> list[dict]:
    """The rulebook's sides; a plain `colors` list is the one side `light`."""
    if ir.get("sides"):
        return ir["sides"]
    return [{"name": "light", "colors": list(ir.get("colors", []))}]


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
    lists += [x["actions"] for key in ("reactions", "triggers", "declarations") for x in ir.get(key, [])]
    if ir.get("setup", {}).get("cut"):
        lists.append(ir["setup"]["cut"]["actions"])
    for lst in lists:
        yield from _walk(lst)


def option_problem(name: str, value, declared, probability: bool) -> str | None:
    """Why `value` cannot be option `name`'s value (its declared value fixes the type), or None."""
    def type_of(v):
        return "true or false" if isinstance(v, bool) else "a number" if isinstance(v, (int, float)) else "text"
    if type_of(value) != type_of(declared):
        return f"option `{name}` takes {type_of(declared)} (its declared value is {declared!r}), not {value!r}"
    if probability and not 0 <= value <= 1:
        return f"option `{name}` is a chance: it must lie between 0 and 1, not {value!r}"
    return None


class Checker:
    def __init__(self, rulebook):
        self.rb = rulebook
        self.ir = rulebook.ir
        self.out: list[Diagnostic] = []
        self.colors: set[str] = set()
        self.cards: dict[str, dict] = {}
        self.options: dict[str, str] = {}
        self.counters: dict[str, dict] = {}
        self.kind_literals: set[int] = set()      # ids of number literals that name a number kind
        self.kind_actions: set[int] = set()       # ids of `discard all` actions whose value is a kind
        self.option_values: dict[str, object] = {}

    def error(self, code, message, node, key=None, label="", help=None):
        file, span = self.rb.where(node, key)
        if span is None and key is not None:
            file, span = self.rb.where(node)
        self.out.append(Diagnostic(code, message, file, span, label, help))

    # -----------------------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        ir = self.ir
        if ir.get("colors") and ir.get("sides"):
            self.error("U0401", "give either `colors` or `side ... colors`, not both", ir, "colors",
                       help="with two sides, list each side's colors in its `side` line")
        for side in sides_of(ir):
            for i, c in enumerate(side["colors"]):
                if c in self.colors:
                    self.error("U0202", f"color `{c}` is declared twice", side["colors"], i, "again here")
                self.colors.add(c)
        side_names = [s["name"] for s in sides_of(ir)]
        if len(set(side_names)) != len(side_names):
            self.error("U0202", "two sides have the same name", ir, "sides")
        probabilities = probability_options(ir)
        for opt in ir.get("options", []):
            self.options[opt["name"]] = {"number": "number", "bool": "bool", "string": "text"}[opt["value"]["kind"]]
            self.option_values[opt["name"]] = opt["value"]["value"]
            if opt["name"] in probabilities:
                problem = option_problem(opt["name"], opt["value"]["value"], opt["value"]["value"], True)
                if problem:
                    self.error("U0303", problem, opt, "value", "not a chance", "write a value from 0 to 1")
        self.check_counters()
        if ir.get("scoring", {}).get("to_the_last"):
            self.error("U0404", "`play to the last` is not supported yet: the round ends when the first player "
                       "goes out", ir["scoring"], "to_the_last", "not supported",
                       "remove it; rounds that go on after the first player is out are planned")
        for card in ir.get("cards", []):
            self.cards[card["names"][0]] = card
            name = card["names"][0]
            if name in self.colors:
                self.error("U0202", f"`{name}` is both a color and a card kind", card["names"], 0,
                           help="rename the card kind")
            if card.get("side") and card["side"] not in side_names:
                self.error("U0201", f"unknown side `{card['side']}`", card, "side", "not a side",
                           did_you_mean(card["side"], side_names))
        if ir["kind"] == "rulebook":
            colored = [c for c in ir.get("cards", []) if c.get("category") != "wild"]
            if not self.colors and colored:
                self.error("U0401", f"the rulebook has no colors, but `{colored[0]['names'][0]}` is not wild", ir, None,
                           help="add a line such as `colors red yellow green blue`, or make every card wild")
            self.check_deck(side_names)
        for card in ir.get("cards", []):
            self.check_card(card)
        for r in ir.get("reactions", []):
            self.check_reaction(r)
        for t in ir.get("triggers", []):
            self.check_trigger(t)
        for d in ir.get("declarations", []):
            self.actions(d["actions"], self.scope(), "declaration")
        for block, key in (("setup", "hand"), ("scoring", "target"), ("scoring", "eliminate_above"), ("scoring", "rounds")):
            e = ir.get(block, {}).get(key)
            if e is not None:
                self.expect(e, "number", self.scope())
        cut = ir.get("setup", {}).get("cut")
        if cut:
            before_deal = {k: v for k, v in self.scope().items() if k != "top"}
            self.expect(cut["chance"], "number", before_deal)
            self.chance_value(cut["chance"])
            self.actions(cut["actions"], before_deal, "cut")
        drawn = ir.get("turn", {}).get("drawn_card")
        if isinstance(drawn, dict):
            self.expect(drawn["must_play_when"], "bool", self.scope(card=True))
        if "when" in ir.get("jump_in", {}):
            self.expect(ir["jump_in"]["when"], "bool", self.scope(card=True))
        self.check_conflicts()
        return self.out

    # -----------------------------------------------------------------------------------------
    def check_deck(self, side_names):
        ir = self.ir
        total = 0
        for deck in ir.get("deck", []):
            if deck.get("side") and deck["side"] not in side_names:
                self.error("U0201", f"unknown side `{deck['side']}`", deck, "side", "not a side",
                           did_you_mean(deck["side"], side_names))
            ncolors = len(next((s["colors"] for s in sides_of(ir) if s["name"] == deck.get("side")),
                               sides_of(ir)[0]["colors"]))
            for entry in deck["entries"]:
                copies = entry["copies"] if entry["kind"] == "per_color" else [entry]
                for cp in copies:
                    for i, face in enumerate(cp["faces"]):
                        card = self.cards.get(face)
                        if card is None:
                            self.error("U0204", f"unknown card kind `{face}` in the deck", cp["faces"], i,
                                       "not a card kind", did_you_mean(face, self.cards)
                                       or "declare it with `card " + face + " { ... }`")
                            continue
                        wild = card.get("category") == "wild"
                        if entry["kind"] == "per_color" and wild:
                            self.error("U0502", f"`{face}` is wild: it has no color", cp["faces"], i,
                                       "wild card under `per color`", f"write `{cp['count']} × {face}` on its own line")
                        if entry["kind"] == "copies" and not wild:
                            self.error("U0502", f"`{face}` needs a color", cp["faces"], i, "colored card",
                                       "put it under `per color:`, or make the card `wild`")
                        total += cp["count"] * (ncolors if entry["kind"] == "per_color" else 1)
        if len(sides_of(ir)) > 1:
            total //= len(sides_of(ir))        # double-faced: each card has one face per side
        if total > MAX_DECK:
            self.error("U0504", f"the deck has {total:,} cards; the limit is {MAX_DECK:,}",
                       ir.get("deck", [ir])[0] if ir.get("deck") else ir, None, "", "use fewer copies")
            return
        lo = ir.get("players", {}).get("min", DEFAULT_PLAYERS[0])
        hand = literal_value(ir.get("setup", {}).get("hand")) if ir.get("setup", {}).get("hand") else DEFAULT_HAND
        if isinstance(hand, (int, float)) and total < lo * hand + 1:
            self.error("U0501", f"the deck has {total} cards: too few to deal {hand} to {lo} players and turn one up",
                       ir.get("deck", [ir])[0] if ir.get("deck") else ir, None, "",
                       f"it needs at least {lo * hand + 1} cards")

    # -----------------------------------------------------------------------------------------
    def scope(self, **extra):
        names = dict(GLOBAL_NAMES)
        for k, v in extra.items():
            if v:
                names[k] = SCOPED_NAMES[k]
        return names

    def check_card(self, card):
        seen = set()
        for effect in card.get("effects", []):
            if effect["event"] not in CARD_EVENTS:
                self.error("U0205", f"a card has no event `{effect['event']}`", effect, "event",
                           "unknown event", did_you_mean(effect["event"], CARD_EVENTS)
                           or "cards react to `play` and `turn_up`; other events take a top-level `on` rule")
            if effect["event"] in seen:
                self.error("U0202", f"`on {effect['event']}` is given twice", effect, "event")
            seen.add(effect["event"])
            self.actions(effect["actions"], self.scope(card=True), effect["event"])
        for key in ("points",):
            if key in card:
                self.expect(card[key], "number", self.scope(card=True))
        for key in ("playable_when", "legal_when"):
            if key in card:
                self.expect(card[key], "bool", self.scope(card=True))
        if "challenge" in card:
            if not any(a["kind"] == "attack" for e in card.get("effects", []) for a in _walk(e["actions"])):
                self.error("U0403", "a challenge needs an attack to challenge", card, "challenge",
                           help="the card's `on play` must make an `attack`")
            self.actions(card["challenge"], self.scope(card=True, target=True, attacker=True, penalty=True,
                                                       legal=True, challenger=True), "challenge")

    def check_reaction(self, r):
        for key in ("to", "with"):
            for i, name in enumerate(r[key]):
                if isinstance(name, dict):         # `any number`, `any action`, `any wild`
                    continue
                if name not in self.cards:
                    self.error("U0204", f"unknown card kind `{name}`", r[key], i, "not a card kind",
                               did_you_mean(name, self.cards))
        scope = self.scope(card=True, target=True, attacker=True, penalty=True)
        if "if" in r:
            self.expect(r["if"], "bool", scope)
        self.actions(r["actions"], scope, "reaction")

    def check_trigger(self, t):
        ev = t["event"]
        if ev not in TRIGGER_EVENTS:
            self.error("U0205", f"unknown event `{ev}`", t, "event", "not an event",
                       did_you_mean(ev, TRIGGER_EVENTS) or "events: " + ", ".join(sorted(TRIGGER_EVENTS)))
        has_card = ev in ("play", "draw")
        if "of" in t:
            pat = t["of"]
            if pat["face"] not in self.cards:
                self.error("U0204", f"unknown card kind `{pat['face']}`", pat, "face", "not a card kind",
                           did_you_mean(pat["face"], self.cards))
            if "color" in pat and pat["color"] not in self.colors:
                self.error("U0203", f"unknown color `{pat['color']}`", pat, "color", "not a color",
                           did_you_mean(pat["color"], self.colors))
            if not has_card:
                self.error("U0403", f"`on {ev}` has no card to match with `of`", pat)
        scope = self.scope(card=has_card)
        if ev == "round_start":
            del scope["top"]                # the first card is not turned up yet
        if "if" in t:
            self.expect(t["if"], "bool", scope)
        self.actions(t["actions"], scope, "card trigger" if has_card else "trigger")
        if "if" not in t:
            emitted = {EMITS[a["kind"]] for a in _walk(t["actions"]) if a["kind"] in EMITS}
            if ev in emitted:
                self.error("U0701", f"this `on {ev}` rule makes a `{ev}` itself, so it triggers itself forever",
                           t, "event", "re-triggers itself", "add an `if` condition that becomes false")

    def check_counters(self):
        taken = set(GLOBAL_NAMES) | set(SCOPED_NAMES) | {a for (_, a) in ATTRIBUTES} | self.colors | set(self.cards) \
            | set(self.options)
        for c in self.ir.get("counters", []):
            name = c["name"]
            if name in self.counters:
                self.error("U0202", f"`{name}` is declared twice", c, "name", "declared again here")
                continue
            if name in taken:
                self.error("U0202", f"`{name}` already has a meaning", c, "name", "taken",
                           f"give the {c['kind']} another name")
            if c.get("reset") == "next_turn" and c["per"] != "player":
                self.error("U0403", "only a value kept per player can last until that player's next turn", c, "reset",
                           help=f"write `{c['kind']} {name} per player reset after next turn`")
            self.counters[name] = c

    def counter_type(self, name):
        return "bool" if self.counters[name]["kind"] == "flag" else "number"

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

    def check_conflicts(self):
        """Two reactions to the same attack with the same card: from two files (two modules that
        each answer it their own way) always a conflict; within one file, unless one has an `if`."""
        seen = {}
        cards = self.ir.get("cards", [])
        for r in self.ir.get("reactions", []):
            for a in kind_names(r["to"], cards):
                for w in kind_names(r["with"], cards):
                    first = seen.get((a, w))
                    if first is not None:
                        here, there = self.rb.where(r)[0], self.rb.where(first)[0]
                        if here != there:
                            self.error("U0702", f"`{_stem(here)}` and `{_stem(there)}` both answer `{a}` with `{w}`",
                                       r, None, "conflicting reaction",
                                       f"these rules conflict: include only one of them ({there} has the other)")
                        elif "if" not in r and "if" not in first:
                            self.error("U0702", f"two reactions answer `{a}` with `{w}`", r, None,
                                       "second reaction", "keep one, or give one an `if` condition")
                    seen.setdefault((a, w), r)

    # -----------------------------------------------------------------------------------------
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
        if k in ATTACK_ACTIONS and context not in ("reaction", "challenge"):
            self.error("U0403", f"`{k.replace('_', ' ')}` only means something in a reaction or a challenge",
                       a, None, "no attack is pending here", "use it inside `react to ...` or `challenge:`")
        if k == "attack" and context in ("trigger", "declaration", "cut"):
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
        if k in ("give", "take"):
            if "where" in a:
                self.expect(a["where"], "bool", {**scope, "card": "card"})
            if k == "take":
                self.expect(a["from"], "player", scope)
        elif k == "discard_all":
            t = "kind" if self.kind_literal(a["what"]) else self.type_of(a["what"], scope)
            if t == "kind":
                self.kind_actions.add(id(a))
            elif t not in (None, "color"):
                self.error("U0301", f"`discard all` takes a color or a card kind, not {_a(t)}", a["what"], None)
        elif k == "look_at":
            if a["hand"].get("kind") != "attr" or a["hand"].get("name") != "hand":
                self.error("U0301", "`look at` takes a player's hand: `look at chosen.hand`", a["hand"], None)
            else:
                self.expect(a["hand"], "hand", scope)
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
        if k == "choose_player":
            if "where" in a:
                self.expect(a["where"], "bool", {**scope, "candidate": "player"})
            name = a.get("as", "chosen")
            if name != "chosen":
                self.new_name(name, a, "as", scope, "the chosen player")
            scope[name] = "player"
        elif k == "reveal":
            scope["revealed"] = "card"
        elif k == "attack":
            inner = {**scope, "target": "player", "attacker": "player", "penalty": "number"}
            self.actions(a["actions"], inner, "attack")
        elif k == "group":
            self.actions(a["actions"], scope, context)
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
        elif k == "perform":
            if "chance" in a:
                self.expect(a["chance"], "number", scope)
                self.chance_value(a["chance"])
            self.actions(a["actions"], scope, context)
            if a.get("otherwise"):
                self.actions(a["otherwise"], scope, context)

    def count_value(self, e, verb):
        try:
            n = constant(e, self.option_values)
        except ZeroDivisionError:
            return                         # the division itself is reported
        if n is not None and n < 0:
            self.error("U0303", f"a player cannot {verb} {n} cards", e, None, "a negative count",
                       "write a count of 0 or more")

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

    def kind_literal(self, e) -> bool:
        """Is `e` a whole number that names a number kind (`7` for the kind `7`)? Then it is one
        (the compiler reads `kind_literals`)."""
        if e.get("kind") == "number" and isinstance(e["value"], int) and not isinstance(e["value"], bool) \
                and str(e["value"]) in self.cards:
            self.kind_literals.add(id(e))
            return True
        return False

    def new_name(self, name, node, key, scope, what):
        """A name the rule gives (`as NAME`) must not hide one that already has a meaning."""
        if name in GLOBAL_NAMES or name in SCOPED_NAMES or name in self.colors or name in self.cards \
                or name in self.options or name in scope:
            self.error("U0202", f"`{name}` already has a meaning", node, key, "taken",
                       f"choose another name for {what}")

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


def _stem(file):
    from pathlib import Path
    return Path(file or "?").stem


def _members(of):
    return [a for (r, a) in ATTRIBUTES if r == of] + [m for (r, m) in METHODS if r == of]


def _walk(actions):
    for a in actions:
        yield a
        for key in ("actions", "then", "otherwise"):
            if isinstance(a.get(key), list):
                yield from _walk(a[key])
        for br in a.get("branches", []):
            yield from _walk(br["then"])
        for o in a.get("outcomes", []):
            yield from _walk(o["actions"])


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


def check(rulebook) -> list[Diagnostic]:
    checker = Checker(rulebook)
    problems = checker.run()
    rulebook.kind_literals = checker.kind_literals
    rulebook.kind_actions = checker.kind_actions
    return problems
