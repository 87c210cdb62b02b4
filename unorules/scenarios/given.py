"""Scenario files, the given state (docs/scenarios.md): the rulebook with its modules and files,
the cards named in the scenario made as physical cards (unknown cards, cards placed more often than
the deck holds them and seats out of range reported with file, key path and a hint), and the
engine's State set up exactly as given, at its first decision (`build`)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from unorules.engine import Game, State, begin_round, begin_turn, turn_up
from unorules.engine.compiler import compile_rulebook
from unorules.engine.types import NO_COLOR
from unorules.errors import Diagnostic, RulebookError, UnorulesError, did_you_mean
from .format import Scenario, ScenarioError


class _Setup:
    def __init__(self, sc: Scenario, rules, game):
        self.sc, self.rules, self.game = sc, rules, game
        self.diags: list[Diagnostic] = list(sc.problems)     # the file's unknown keys, with the rest
        self.cards: list[tuple] = []
        self.used: Counter = Counter()
        nsides = len(rules.sides)
        self.deck_counts = [Counter(d) for d in rules.deck]
        self.nsides = nsides

    def err(self, msg, node, key=None, help_=None, code="U0801"):
        sp = self.sc.spans
        self.diags.append(Diagnostic(code, msg, self.sc.file, sp.at(node, key) if key is not None else sp.at(node),
                                     help=help_))

    def card(self, name, node, key):
        """A new physical card for a card name of the scenario; None (with a diagnostic) if unknown."""
        rules = self.rules
        if not isinstance(name, str):
            self.err(f"`{name}` is not a card: write `red 5`, `wild`, or `red 5 / teal skip` for two sides",
                     node, key, code="U0802")
            return None
        parts = [p.strip() for p in name.split("/")]
        if len(parts) != self.nsides:
            if self.nsides > 1:
                self.err(f"`{name}`: this rulebook's cards have {self.nsides} faces", node, key,
                         "write both faces: `<light face> / <dark face>`", "U0802")
            else:
                self.err(f"`{name}`: this rulebook's cards have one face", node, key, "remove the ` / ...` part", "U0802")
            return None
        faces = []
        for side, part in enumerate(parts):
            part = " ".join(part.split())
            f = rules.face_by_name.get(part)
            if f is None or self.deck_counts[side][f] == 0:
                names = sorted({rules.face_names[x] for x in self.deck_counts[side]})
                self.err(f"there is no card `{part}` in the deck of `{rules.name}`"
                         + (f" (side {rules.sides[side]})" if self.nsides > 1 else ""), node, key,
                         did_you_mean(part, names) or "a colored card is `<color> <face>`, a wild card is its kind",
                         "U0802")
                return None
            self.used[(side, f)] += 1
            if self.used[(side, f)] == self.deck_counts[side][f] + 1:
                self.err(f"`{part}` is placed more often than the deck holds it ({self.deck_counts[side][f]})",
                         node, key, "remove one, or use another card", "U0802")
            faces.append(f)
        self.cards.append(tuple(faces))
        return len(self.cards) - 1

    def card_list(self, lst, node, key):
        if lst is None:
            return []
        if not isinstance(lst, list):
            self.err(f"`{key}` must be a list of cards", node, key)
            return []
        out = []
        for i, name in enumerate(lst):
            c = self.card(name, lst, i)
            if c is not None:
                out.append(c)
        return out

    def seat(self, v, node, key):
        n = self.game.players
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
            self.err(f"seat `{v}` is out of range: seats are 0 to {n - 1}", node, key)
            return None
        return v

    def color(self, v, node, key):
        if v not in self.rules.color_names:
            self.err(f"unknown color `{v}`", node, key, did_you_mean(str(v), self.rules.color_names))
            return None
        return self.rules.color_names.index(v)


def _given_counters(su, s: State, raw, given):
    """`given.counters`: {NAME: value} for the table's, {NAME: {SEAT: value}} for the players'."""
    if not isinstance(raw, dict):
        su.err("`given.counters` maps counter and flag names to values", given, "counters")
        return
    declared = {c["name"]: c for c in s.rules.counters}
    for name, value in raw.items():
        c = declared.get(name)
        if c is None:
            su.err(f"the rulebook has no counter or flag `{name}`", raw, name, did_you_mean(str(name), declared))
            continue
        want = bool if c["kind"] == "flag" else int

        def ok(v):
            return isinstance(v, bool) if want is bool else (isinstance(v, int) and not isinstance(v, bool))
        if c["per"] == "player":
            if not isinstance(value, dict):
                su.err(f"`{name}` is kept per player: give {{SEAT: value}}", raw, name)
                continue
            for seat, v in value.items():
                q = su.seat(seat, value, seat)
                if q is None:
                    continue
                if not ok(v):
                    su.err(f"`{name}` is a {c['kind']}: {'true or false' if want is bool else 'a whole number'}, not {v!r}",
                           value, seat)
                    continue
                s.memory[name][q] = v
        elif not ok(value):
            su.err(f"`{name}` is a {c['kind']}: {'true or false' if want is bool else 'a whole number'}, not {value!r}",
                   raw, name)
        else:
            s.memory[name] = value


def rulebook_of(sc: Scenario):
    """The scenario's rulebook, with its `include` modules and `with` files, loaded."""
    from unorules.language.loader import SUFFIXES, load
    d = sc.data
    base = Path(sc.file).parent

    def source(key, value):
        """A shipped name, or a path relative to the scenario file that stays inside its folder or
        the working folder (a scenario cannot read any file on the machine)."""
        value = str(value)
        if not (Path(value).suffix in SUFFIXES or "/" in value or "\\" in value):
            return value
        p = Path(value)
        inside = not p.is_absolute() and any(
            _within((base / p).resolve(), root) for root in (base.resolve(), Path.cwd().resolve()))
        if not inside:
            raise ScenarioError([Diagnostic("U0801", f"`{value}` is outside the scenario's folder", sc.file,
                                            sc.spans.at(d, key), help="name a shipped rulebook, or a file beside the "
                                            "scenario (a path relative to it, inside the working folder)")],
                                {sc.file: sc.text})
        return base / p
    for key in ("include", "with"):
        if key in d and not isinstance(d[key], list):
            raise ScenarioError([Diagnostic("U0801", f"`{key}` must be a list of names", sc.file,
                                            sc.spans.at(d, key))], {sc.file: sc.text})
    rulebook = source("rulebook", d["rulebook"])
    include = tuple(str(n) for n in d.get("include") or ())
    for name in include:
        if "/" in name or "\\" in name or name.startswith("."):
            raise ScenarioError([Diagnostic("U0801", f"`{name}` is not a module name", sc.file, sc.spans.at(d, "include"),
                                            help="modules are named; lay a file on top with `with:`")],
                                {sc.file: sc.text})
    with_ = tuple(str(source("with", w)) for w in (d.get("with") or ()))
    try:
        return load(rulebook, include=include, with_=with_)
    except RulebookError as e:
        raise ScenarioError(e.diagnostics, e.texts) from None


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def build(sc: Scenario, before_run=None) -> tuple[State, Game]:
    """The scenario's State at its first decision, and its Game; `before_run(state, start)` is shown
    the given position before the engine plays on from it."""
    d = sc.data
    rb = rulebook_of(sc)
    options = d.get("options") or {}
    if not isinstance(options, dict):
        raise ScenarioError([Diagnostic("U0801", "`options` must map option names to values", sc.file,
                                        sc.spans.at(d, "options"))], {sc.file: sc.text})
    try:
        rules = compile_rulebook(rb, options)
    except UnorulesError as e:
        raise ScenarioError([Diagnostic("U0801", str(e), sc.file, sc.spans.at(d, "options"))],
                            {sc.file: sc.text}) from None
    players = d["players"]
    try:
        game = Game(rules, players, log_events=True, stop_after_round=True)
    except UnorulesError as e:
        raise ScenarioError([Diagnostic("U0801", str(e), sc.file, sc.spans.at(d, "players"))], {sc.file: sc.text}) from None
    su = _Setup(sc, rules, game)
    given = d.get("given") or {}
    start = d.get("start", "turn")
    s = State(game, int(d.get("seed", 0)))
    s.round = 0
    hands = [[] for _ in range(players)]
    raw_hands = given.get("hands") or {}
    if not isinstance(raw_hands, dict):
        su.err("`given.hands` must map seats to lists of cards", given, "hands")
        raw_hands = {}
    for seat, cards in raw_hands.items():
        sq = su.seat(seat, raw_hands, seat)
        lst = su.card_list(cards, raw_hands, seat)
        if sq is not None:
            hands[sq] = lst
    fronts = [[] for _ in range(players)]
    raw_fronts = given.get("front") or {}
    for seat, cards in (raw_fronts.items() if isinstance(raw_fronts, dict) else ()):
        sq = su.seat(seat, raw_fronts, seat)
        lst = su.card_list(cards, raw_fronts, seat)
        if sq is not None:
            fronts[sq] = lst
    discard = su.card_list(given.get("discard"), given, "discard")
    piles = [discard]
    if len(rules.piles) > 1:
        if "discard" in given:
            su.err(f"this rulebook has several discard piles ({', '.join(rules.piles)}): give them as `piles`", given,
                   "discard", "write `piles: {" + rules.piles[0] + ": [red 3], ...}`")
        piles = [[] for _ in rules.piles]
        raw_piles = given.get("piles") or {}
        for name, cards in (raw_piles.items() if isinstance(raw_piles, dict) else ()):
            if name not in rules.piles:
                su.err(f"no pile `{name}` (piles: {', '.join(rules.piles)})", raw_piles, name,
                       did_you_mean(str(name), rules.piles))
                continue
            piles[rules.piles.index(name)] = su.card_list(cards, raw_piles, name)
        if start == "turn":
            for name, pile in zip(rules.piles, piles):
                if not pile:
                    su.err(f"with `start: turn` pile `{name}` needs at least its top card", given,
                           "piles" if "piles" in given else None)
        discard = piles[0]
    elif "piles" in given:
        su.err("`piles` is only for rulebooks with several named discard piles: give `discard`", given, "piles")
    draw = su.card_list(given.get("draw_pile"), given, "draw_pile")
    if start == "deal" and any(hands):
        su.err("with `start: deal` the hands are dealt by the engine: leave `hands` out", given, "hands")
    if start in ("turn_up", "deal"):
        for key in ("discard", "color", "turn"):
            if key in given:
                su.err(f"with `start: {start}`, `given.{key}` is not given: the engine turns up the first card",
                       given, key)
        if not draw:
            su.err(f"with `start: {start}` the draw pile cannot be empty", given, "draw_pile" if "draw_pile" in given else None)
    elif not discard and len(rules.piles) == 1:
        su.err("with `start: turn` the discard pile needs at least its top card", given if given else d,
               "discard" if "discard" in given else None, "add `discard: [red 3]`, or use `start: turn_up`")
    dealer = su.seat(given.get("dealer", players - 1), given, "dealer") if "dealer" in given else players - 1
    side = 0
    if "side" in given:
        if given["side"] not in rules.sides:
            su.err(f"unknown side `{given['side']}`", given, "side", did_you_mean(str(given["side"]), rules.sides))
        else:
            side = rules.sides.index(given["side"])
    if su.diags:
        raise ScenarioError(su.diags, {sc.file: sc.text})
    s.setup_cards(su.cards)
    s.set_side(side)
    s.hands = hands
    s.fronts = fronts
    s.piles = piles
    s.discard = piles[0]
    s.pile_colors = [s.ccolor[p[-1]] if p else NO_COLOR for p in piles]
    s.draw_pile = list(reversed(draw))
    s.dealer = dealer if dealer is not None else players - 1
    direction = given.get("direction", "clockwise")
    if direction not in ("clockwise", "counterclockwise"):
        su.err("`direction` is `clockwise` or `counterclockwise`", given, "direction")
    s.direction = 1 if direction == "clockwise" else -1
    if "scores" in given:
        for seat, v in (given["scores"] or {}).items():
            sq = su.seat(seat, given["scores"], seat)
            if sq is not None:
                s.scores[sq] = int(v)
    if "counters" in given:
        _given_counters(su, s, given["counters"], given)
    if start == "turn" and not discard:
        raise ScenarioError(su.diags, {sc.file: sc.text})
    if start == "turn":
        s.round = 1
        top = discard[-1]
        s.color = s.ccolor[top]
        if "color" in given:
            c = su.color(given["color"], given, "color")
            if c is not None:
                if c not in rules.side_colors[side]:
                    su.err(f"`{given['color']}` is not a color of the side in play", given, "color")
                s.color = c
        elif s.color == NO_COLOR and rules.side_colors[side]:
            su.err("the top card has no color: give the current `color`", given, "discard")
        turn = su.seat(given["turn"], given, "turn") if "turn" in given else s.step(s.dealer, 1)
        empty = [q for q in range(players) if not hands[q]]
        if empty:       # a player with no card has gone out: the round would be over, not at a turn
            su.err(f"seat {empty[0]} holds no card: with `start: turn` every player holds one (a player with none "
                   "has gone out, so the round would be over)", given if given else d,
                   "hands" if "hands" in given else None,
                   f"give seat {empty[0]} a card, or start the round with `start: deal`")
        s.streak = 0            # how many of the top card's kind lie in a row on the given pile
        for c in reversed(discard):
            if s.ckind[c] != s.ckind[top]:
                break
            s.streak += 1
        if su.diags:
            raise ScenarioError(su.diags, {sc.file: sc.text})
        s.current = turn
        s.push(begin_turn, turn)
    elif start == "turn_up":
        s.round = 1
        s.push(turn_up)
    else:
        s.push(begin_round, False)
    if su.diags:
        raise ScenarioError(su.diags, {sc.file: sc.text})
    if before_run is not None:
        before_run(s, start)
    s.run()
    return s, game
