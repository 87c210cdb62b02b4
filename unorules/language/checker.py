"""Stage 3: semantic checks of a merged rulebook, the ones a schema cannot make.

Unknown and duplicate names (cards, colours, sides, events, options), expression types, names used
where they are not bound, actions used where they mean nothing, deck sanity (colours, sides, enough
cards to deal), named rules that do themselves, conflicting rule modules.
"""
from __future__ import annotations

from unorules.errors import MAX_VALUE, Diagnostic, did_you_mean
from .expression_types import ExprTypes
from .ir import kind_names, literal_value, probability_options, sides_of, walk as _walk
from .action_checks import ActionChecks
from .nesting import NestingChecks
from .vocab import ATTRIBUTES, CARD_EVENTS, EVENT_WORDS, GLOBAL_NAMES, SCOPED_NAMES, TRIGGER_EVENTS

DEFAULT_PLAYERS = (2, 10)
DEFAULT_HAND = 7
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


class Checker(ActionChecks, ExprTypes, NestingChecks):
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

    def error(self, code, message, node, key=None, label="", help=None, related=()):
        """`related`: (node, key, what) of other places that explain this one."""
        file, span = self.rb.where(node, key)
        if span is None and key is not None:
            file, span = self.rb.where(node)
        self.out.append(Diagnostic(code, message, file, span, label, help,
                                   related=[(*self.rb.where(n, k), w) for n, k, w in related]))
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
        first_color: dict[str, tuple] = {}
        # the IR's own lists (sides_of copies a plain `colors` list), so that each color is located
        for colors in [s["colors"] for s in ir["sides"]] if ir.get("sides") else [ir.get("colors", [])]:
            for i, c in enumerate(colors):
                if c in self.colors:
                    self.error("U0202", f"color `{c}` is declared twice", colors, i, "again here",
                               related=[(*first_color[c], "first declared here")])
                self.colors.add(c)
                first_color.setdefault(c, (colors, i))
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
        for r in ir.get("play_rules", []):          # judged for every card a player may play, `card` bound
            self.expect(r["when"], "bool", self.scope(card=True))
        for d in ir.get("declarations", []):
            self.actions(d["actions"], self.scope(), "declaration")
        declared = [d["name"] for d in ir.get("declarations", [])]
        for f in ir.get("false_calls", []):
            if f["name"] not in declared:
                self.error("U0201", f"no call `{f['name']}` is declared", f, "name", "not declared",
                           did_you_mean(f["name"], declared) or f"declare it: `declare {f['name']} at 1 card: draw 2`")
            self.actions(f["actions"], self.scope(), "declaration")
        sc = ir.get("scoring", {})
        if sc.get("method") == "no_points":
            for key, word in (("target", "target"), ("eliminate_above", "eliminate above")):
                if key in sc:
                    self.error("U0403", f"`no points` keeps no totals, so `{word}` can never be reached", sc, key,
                               "needs points", f"end the match after some rounds instead: `rounds 7` "
                               f"(`remove scoring {key}` where it is inherited)")
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
                self.error("U0202", f"pile `{name}` is named twice", piles, i, "again here",
                           related=[(piles, piles.index(name), "first named here")])
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
                       did_you_mean(ev, TRIGGER_EVENTS)
                       or "events: " + ", ".join(sorted(EVENT_WORDS.get(e, e) for e in TRIGGER_EVENTS)))
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
        scope = self.scope(card=has_card, target=ev == "attacked", attacker=ev == "attacked",
                           penalty=ev == "attacked")
        if ev in ("round_start", "cut"):
            del scope["top"]                # the first card is not turned up yet
        if ev == "cut" and "cut" not in self.ir.get("setup", {}):
            self.error("U0403", "`on cut` runs just before the dealer's cut, and this rulebook has no cut", t, "event",
                       "no cut here", "give the rulebook one: `setup { cut chance 1 / 15: ... }`")
        if ev == "round_end":
            scope["winner"] = "player"
        if ev == "hand_reaches":             # `on hand reaches N`: written so, with its count
            if "count" not in t:
                self.error("U0205", "`on hand_reaches` is written `on hand reaches N:`", t, "event", "needs its count",
                           "write `on hand reaches 25: ...`")
            else:
                self.expect(t["count"], "number", self.scope())
        elif "count" in t:
            self.error("U0403", f"`on {ev}` takes no count", t, "count")
        if "if" in t:
            self.expect(t["if"], "bool", scope)
        self.actions(t["actions"], scope, "card trigger" if has_card else "attack hook" if ev == "attacked" else "trigger")

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
            self.counters[name] = c

    def counter_type(self, name):
        return "bool" if self.counters[name]["kind"] == "flag" else "number"

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
