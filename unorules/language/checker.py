"""Stage 3: semantic checks of a merged rulebook, the ones a schema cannot make.

Unknown and duplicate names (cards, colours, sides, events, options), expression types, names used
where they are not bound, actions used where they mean nothing, deck sanity (colours, sides, enough
cards to deal), named rules that do themselves, conflicting rule modules.
"""
from __future__ import annotations

from unorules.errors import MAX_VALUE, Diagnostic, did_you_mean
from .expression_types import ExprTypes, _a
from .ir import constant, kind_names, literal_value, may_be_fraction, probability_options, sides_of, walk as _walk
from .nesting import NestingChecks
from .vocab import ATTACK_ACTIONS, ATTRIBUTES, CARD_EVENTS, GLOBAL_NAMES, SCOPED_NAMES, TRIGGER_EVENTS

DEFAULT_PLAYERS = (2, 10)
DEFAULT_HAND = 7
WHOLE_NUMBERS = {"draw": "count", "give": "count", "take": "count", "attack": "penalty", "add_penalty": "amount"}
MAX_REPEAT = 100           # passes of one `repeat` at most (docs/language.md, Limits)
MAX_ERRORS = 300           # a file with more is not checked further (each costs, and nobody reads past them)
MAX_DECK = 5000           # cards in one box; more is refused (memory and time stay bounded)


def option_problem(name: str, value, declared, probability: bool) -> str | None:
    """Why `value` cannot be option `name`'s value (its declared value fixes the type), or None."""
    def type_of(v):
        return "true or false" if isinstance(v, bool) else "a number" if isinstance(v, (int, float)) else "text"
    if type_of(value) != type_of(declared):
        return f"option `{name}` takes {type_of(declared)} (its declared value is {declared!r}), not {value!r}"
    if type_of(value) == "a number" and (value != value or not -MAX_VALUE <= value <= MAX_VALUE):
        return f"option `{name}` takes a number within ±{MAX_VALUE:,}, not {value!r}"
    if isinstance(declared, int) and not isinstance(declared, bool) and isinstance(value, float) \
            and not value.is_integer():
        return f"option `{name}` takes a whole number (its declared value is {declared!r}), not {value!r}"
    if probability and not 0 <= value <= 1:
        return f"option `{name}` is a chance: it must lie between 0 and 1, not {value!r}"
    return None


class _TooMany(Exception):
    pass


class Checker(ExprTypes, NestingChecks):
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
        self.rules: dict[str, dict] = {}          # named rules (`rule NAME: ...`) by name
        self.text_values: dict[str, list] = {}    # a choice's name -> the texts it can take (`choose one of ...`)

    def error(self, code, message, node, key=None, label="", help=None):
        file, span = self.rb.where(node, key)
        if span is None and key is not None:
            file, span = self.rb.where(node)
        self.out.append(Diagnostic(code, message, file, span, label, help))
        if len(self.out) >= MAX_ERRORS:
            raise _TooMany

    # -----------------------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        try:
            return self._run()
        except _TooMany:
            last = self.out[-1]
            self.out.append(Diagnostic(last.code, f"checking stopped after {MAX_ERRORS} errors: fix these first",
                                       last.file, last.span, help="the rest of the file was not checked"))
            return self.out

    def _run(self) -> list[Diagnostic]:
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
        self.check_table()
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
        for block, key in (("setup", "hand"), ("scoring", "target"), ("scoring", "eliminate_above"), ("scoring", "rounds"),
                           ("scoring", "places")):
            e = ir.get(block, {}).get(key)
            if e is not None:
                self.expect(e, "number", self.scope())
        scoring = ir.get("scoring", {})
        if "rank_rest_by" in scoring:
            self.expect(scoring["rank_rest_by"], "number", self.scope(winner=True))
        if isinstance(scoring.get("method"), dict):
            self.expect(scoring["method"]["winner_scores"], "number", self.scope(winner=True))
        for key in ("next_dealer", "next_leader"):
            if key in scoring:
                self.expect(scoring[key], "player", self.scope(winner=True))
        for r in ir.get("rules", []):
            self.actions(r["actions"], self.scope(), "rule")
        if "draw_with" in ir.get("turn", {}):
            self.actions(ir["turn"]["draw_with"], self.scope(), "turn's draw")
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
        self.check_nesting()
        return self.out

    def check_table(self):
        """Teams, named piles and named rules: names unique, and the shapes the engine can play."""
        ir = self.ir
        teams = ir.get("teams")
        if teams and ir["kind"] == "rulebook":
            lo, hi = ir.get("players", {}).get("min", DEFAULT_PLAYERS[0]), ir.get("players", {}).get("max", DEFAULT_PLAYERS[1])
            if not any(n % teams["size"] == 0 and n > teams["size"] for n in range(lo, hi + 1)):
                self.error("U0403", f"no player count from {lo} to {hi} makes teams of {teams['size']}", teams, None,
                           "no table fits", f"allow a multiple of {teams['size']} players: `players 4..4`")
        piles = ir.get("piles", [])
        for i, name in enumerate(piles):
            if name in piles[:i]:
                self.error("U0202", f"pile `{name}` is named twice", piles, i, "again here")
        if len(piles) > 1 and ir.get("turn", {}).get("multi_play"):
            self.error("U0404", "`play same face together` is not supported with several piles", ir["turn"],
                       "multi_play", "not supported", "keep one pile, or play one card at a time")
        self.rules = {}
        for r in ir.get("rules", []):
            if r["name"] in self.rules:
                self.error("U0202", f"rule `{r['name']}` is given twice", r, "name", "again here")
            self.rules[r["name"]] = r
        self.check_rule_cycles()

    def check_rule_cycles(self):
        """A rule that does itself, directly or through others, never ends: refused."""
        calls = {name: {a["rule"] for a in _walk(r["actions"]) if a["kind"] == "do"} for name, r in self.rules.items()}
        for start in calls:
            stack, seen = [(start, (start,))], set()
            while stack:
                name, path = stack.pop()
                for callee in calls.get(name, ()):
                    if callee == start:
                        self.error("U0701", f"rule `{start}` does itself ({' -> '.join(path + (start,))}): it never ends",
                                   self.rules[start], "name", "does itself", "a rule may do other rules, never itself")
                        stack = []
                        break
                    if callee not in seen:
                        seen.add(callee)
                        stack.append((callee, path + (callee,)))

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
        if "matches_as" in card:
            other = self.cards.get(card["matches_as"])
            if other is None:
                self.error("U0204", f"unknown card kind `{card['matches_as']}`", card, "matches_as", "not a card kind",
                           did_you_mean(card["matches_as"], self.cards))
            elif other is card or "matches_as" in other:
                self.error("U0403", f"`{card['names'][0]}` matches as `{card['matches_as']}`, which matches as another kind "
                           "or is itself", card, "matches_as", help="name a kind that matches as itself")
        for effect in card.get("effects", []):
            if effect["event"] not in CARD_EVENTS:
                self.error("U0205", f"a card has no event `{effect['event']}`", effect, "event",
                           "unknown event", did_you_mean(effect["event"], CARD_EVENTS)
                           or "cards react to `play` and `turn_up`; other events take a top-level `on` rule")
            if effect["event"] in seen:
                self.error("U0202", f"`on {effect['event']}` is given twice", effect, "event")
            seen.add(effect["event"])
            self.actions(effect["actions"], self.scope(card=True, turn_player=bool(card.get("at_any_time"))),
                         effect["event"])
        if "points" in card:
            self.expect(card["points"], "number", self.scope(card=True))
            if _reads_points(card["points"]):
                self.error("U0701", "a card's points that read a hand's points never end: the hand holds cards "
                           "whose points read it again", card["points"], None, "reads `.points`",
                           "count the hand some other way: `me.hand.size`, or `me.hand.count(...)`")
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
        if ev == "round_end":
            scope["winner"] = "player"
        if "if" in t:
            self.expect(t["if"], "bool", scope)
        self.actions(t["actions"], scope, "card trigger" if has_card else "trigger")

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
        key = WHOLE_NUMBERS.get(k)
        if key and isinstance(a.get(key), dict):
            self.whole_number(a[key], "a count" if key == "count" else "a penalty")
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


def _reads_points(e) -> bool:
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if n.get("kind") == "attr" and n.get("name") == "points":
                return True
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return False


def _stem(file):
    from pathlib import Path
    return Path(file or "?").stem


def check(rulebook) -> list[Diagnostic]:
    """The checker's errors, and (when there are none) the warnings of lints.py beside them."""
    from .lints import lint
    checker = Checker(rulebook)
    problems = checker.run()
    if not problems:
        problems = lint(rulebook)
    rulebook.kind_literals = checker.kind_literals
    rulebook.kind_actions = checker.kind_actions
    return problems
