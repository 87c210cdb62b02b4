"""Scenario files (docs/scenarios.md): a given state, scripted decisions, expectations.

`load_scenarios(path)` reads and validates a file (unknown keys, unknown cards, cards placed more
often than the deck holds them, seats out of range: each reported with file, key path and a hint);
`run(scenario)` sets up the state exactly, answers the engine's decisions from the script (with
the `defaults` rule), fixes chance outcomes, stops as the format says and compares `expect`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from unorules.engine import Game, State, begin_round, begin_turn, turn_up
from unorules.engine.compiler import compile_rulebook
from unorules.engine.types import NO_COLOR, PAUSED
from unorules.errors import Diagnostic, RulebookError, UnorulesError, did_you_mean
from .answers import _Reject, _answer, _choose, _default_answer, _describe, _entry_text
from .expect import compare
from .format import DECISION_KEYS, Scenario, ScenarioError, load_scenarios  # noqa: F401 (re-exported)

# engine decision kind -> the script keys that answer it
ANSWERS = {"turn": ("play", "draw"), "drawn": ("play", "keep", "draw"), "any_time": ("play",), "play_more": ("play",), "color": ("choose",), "player": ("choose",),
           "card": ("choose",), "challenge": ("challenge",), "respond": ("respond",), "jump_in": ("jump_in",),
           "catch": ("catch",), "perform": ("perform",), "chance": ("chance",), "option": ("choose",),
           "number": ("choose",), "kind": ("choose",), "take": ("choose",)}


@dataclass
class Result:
    scenario: Scenario
    ok: bool
    message: str = ""
    trace: list[str] = field(default_factory=list)
    state: State | None = None
    generated: str = ""          # with `follow`: how far generated code went along, or why not

    def as_dict(self):
        out = {"name": self.scenario.name, "file": self.scenario.file, "ok": self.ok, "message": self.message,
               "trace": self.trace}
        if self.generated:
            out["generated"] = self.generated
        return out


# ---------------------------------------------------------------------------------------------
# building the given state

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


# ---------------------------------------------------------------------------------------------
# running

def run(sc: Scenario, follow=None) -> Result:
    """`follow(state)`: (a follower, None) or (None, why): code that goes on from the given position
    beside the engine, sent the same answers and held to the engine's State at every decision, every
    checkpoint and the end (codegen/steps.py's Follower: the scenario in generated code)."""
    trace: list[str] = []
    fol = _Following(follow)
    try:
        s, game = build(sc, fol.enter if follow is not None else None)
    except ScenarioError as e:
        return Result(sc, False, e.render(), trace)
    d_ = sc.data
    script = list(d_.get("script") or [])
    defaults = dict(d_.get("defaults") or {})
    pending: dict = {}          # color/target of the last entry, for the same player's follow-up choice
    i = 0
    rejected = None

    def check(expect, where):
        problems = compare(s, expect, rejected)
        if problems:
            raise _Fail(f"{where}: {problems[0]}")
        fol.check(s, where)

    try:
        guard = 0
        while True:
            guard += 1
            if guard > 100000:
                raise _Fail("the scenario ran 100000 decisions without stopping")
            if s.decision is PAUSED:     # a dealt start, between its first two turns: the follower enters
                fol.enter_paused(s)
                continue
            while i < len(script) and "expect" in script[i]:
                check(script[i]["expect"] or {}, f"checkpoint script[{i}]")
                trace.append(f"checkpoint script[{i}] holds")
                i += 1
            if s.terminal:
                if i < len(script):
                    raise _Fail(f"the game ended ({s.outcome}) before script[{i}] {_entry_text(script[i])}")
                break
            d = s.decision
            answer = None
            # a follow-up choice named with the previous entry (`color:`, `target:`)
            if pending.get("player") == d.player and d.kind == "color" and "color" in pending:
                answer = _choose(s, d, pending.pop("color"))
            elif pending.get("player") == d.player and d.kind == "player" and "target" in pending:
                answer = _choose(s, d, pending.pop("target"))
            if answer is not None:
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (from the entry before)")
                fol.apply(s, answer)
                continue
            entry = script[i] if i < len(script) else None
            keys = ANSWERS.get(d.kind, ())
            ekey = next((k for k in DECISION_KEYS if entry is not None and k in entry), None)
            matches = entry is not None and ekey in keys and (d.kind == "chance" or entry.get("player") == d.player)
            if matches:
                pending = {}
                consumed = 1
                nxt = script[i + 1] if i + 1 < len(script) else None
                if ekey in ("play", "jump_in") and "color" not in entry and isinstance(nxt, dict) \
                        and nxt.get("player") == d.player and nxt.get("choose") in s.rules.color_names \
                        and any(a.color is not None for a in d.options):
                    # `play: wild` then `choose: yellow`: the engine takes both as one play
                    entry = {**entry, "color": nxt["choose"]}
                    consumed = 2
                if ekey == "choose" and isinstance(entry["choose"], list) and d.kind in ("card", "take"):
                    # `choose: [CARD, CARD]`: one card decision after another, by the same player
                    first, rest = entry["choose"][0] if entry["choose"] else None, entry["choose"][1:]
                    if rest:
                        script[i] = {**entry, "choose": rest}
                        consumed = 0
                    entry = {**entry, "choose": first}
                try:
                    answer = _answer(s, d, ekey, entry)
                except _Reject as r:
                    rejected = str(r)
                    trace.append(f"asked {_describe(s, d)} -> script[{i}] {_entry_text(entry)} REJECTED: {r}")
                    if i == len(script) - 1 and "error" in (d_.get("expect") or {}):
                        i += 1
                        break
                    raise _Fail(f"script[{i}] {_entry_text(entry)} was rejected: {r}")
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (script[{i}]"
                             + (f" and [{i + 1}])" if consumed == 2 else ")"))
                for m in ("color", "target"):
                    if m in entry and not (m == "color" and entry.pop("_color_used", False)):
                        pending[m] = entry[m]
                        pending["player"] = d.player
                i += consumed
                if d.probs is not None:
                    fol.stop("the script fixes a chance outcome, which generated code draws itself")
                fol.apply(s, answer)
                continue
            dkey = keys[0] if keys else None
            if d.kind in ("perform", "any_time", "play_more") and d.kind in defaults:
                dkey = d.kind               # these defaults are named by their decision's kind
            if dkey in defaults and d.kind not in ("turn",):
                answer = _default_answer(s, d, defaults[dkey])
                if answer is not None:
                    trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (default)")
                    fol.apply(s, answer)
                    continue
            if d.probs is not None and (entry is None or ekey not in ("chance", "perform")):
                if i >= len(script):
                    break
                # randomness the script does not fix: the scenario's seed decides
                answer = s.rng.choices(d.options, d.probs)[0]
                trace.append(f"asked {_describe(s, d)} -> {s.action_name(answer)} (seed)")
                fol.apply(s, answer)
                continue
            if entry is None:
                break
            raise _Fail(f"the engine asked {_describe(s, d)}, but script[{i}] holds {_entry_text(entry)}")
        want_error = (d_.get("expect") or {}).get("error")
        if want_error is not None and rejected is None and s.outcome == "error":
            # the rules failed at run time (a loop cap, a value out of range): the message is expected
            if str(want_error) not in str(s.error):
                raise _Fail(f"expected an error containing \"{want_error}\", got the runtime rule error: {s.error}")
            problems = compare(s, d_.get("expect") or {}, rejected)
            if problems:
                raise _Fail(problems[0])
            fol.check(s, "at the end")
            return Result(sc, True, "", trace, s, fol.note())
        problems = compare(s, d_.get("expect") or {}, rejected)
        if problems:
            raise _Fail(problems[0])
        fol.check(s, "at the end")
        if want_error is not None and rejected is None:
            raise _Fail(f"expected the last decision to be rejected with \"{want_error}\", but it was accepted")
    except _Fail as f:
        return Result(sc, False, str(f), trace, s, fol.note())
    except UnorulesError as e:
        return Result(sc, False, f"error: {e}", trace, s, fol.note())
    if s.outcome == "error":
        return Result(sc, False, f"runtime rule error: {s.error}", trace, s, fol.note())
    return Result(sc, True, "", trace, s, fol.note())


class _Fail(Exception):
    pass


class _Following:
    """A scenario's run followed by other code (`run(follow=...)`), or by nothing."""

    def __init__(self, follow):
        self.follow, self.follower, self.why, self.steps, self.stopped = follow, None, None, 0, False

    def enter(self, state, start):
        """The given position: entered now at a turn's start; a dealt or turned-up start is entered
        at the engine's first pause between two turns (enter_paused)."""
        if start == "turn":
            self.follower, self.why = self.follow(state)
        else:
            state.pause_before_turn = True
            self.why = "the round ended before its first turn was over"

    def enter_paused(self, s):
        self.follower, self.why = self.follow(s)
        s.pause_before_turn = False                 # once: the engine plays on as before
        s.decision = None
        s.game.flow.advance(s)
        s.run()

    def stop(self, why):
        if self.follower is not None:
            self.follower, self.stopped = None, True
            self.why = f"equal to the engine for {self.steps} decision{'' if self.steps == 1 else 's'}, then {why}"

    def apply(self, s, answer):
        """The engine's answer `answer` to its decision, played by the follower too. A chance the
        script leaves to the seed the follower draws itself, on the same stream."""
        if self.follower is not None and s.decision.probs is None:
            self.check(s, f"before `{s.action_name(answer)}`")
            self.follower.apply(s.game.action_space.id_of(s, answer))
            self.steps += 1
        s.apply_action(answer)

    def check(self, s, where):
        if self.follower is None or (not s.terminal and s.decision.probs is not None):
            return                  # (at a chance the engine has yet to draw, the follower has drawn it)
        diff = self.follower.differences(s)
        if diff:
            raise _Fail(f"generated code differs from the engine {where}: {diff}")

    def note(self) -> str:
        if self.follow is None:
            return ""
        if self.follower is None:
            return f"{'followed' if self.stopped else 'not followed'} in generated code: {self.why}"
        return (f"followed in generated code: {self.steps} decision{'' if self.steps == 1 else 's'}, "
                "equal to the engine's")


def run_file(path, follow=None) -> list[Result]:
    try:
        scenarios = load_scenarios(path)
    except RulebookError as e:
        sc = Scenario(Path(path).name, str(path), {}, None, "")
        return [Result(sc, False, e.render())]
    return [run(sc, follow) for sc in scenarios]


def scenario_files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
        else:
            out.append(p)
    return out
