"""Stage 5: the generic interpreter. A Game (compiled rulebook + options) and its States.

OpenSpiel style: a State is one playthrough with `current_player()`, `legal_actions()`,
`apply_action()`, chance nodes with named outcomes, `is_terminal()`, `returns()`, `clone()`.
Control flow is an explicit agenda (a stack of frames `(fn, *args)`): rule actions push frames,
and an action that needs a choice sets `state.decision` and stops the run until the choice is
applied. So every choice (play, draw, color, player, card, challenge, respond, jump in, catch,
perform, chance) is a decision point that an agent, a script or a person answers.

Nothing here knows a card: cards are ints whose faces, kinds and effects come from the rulebook.
"""
from __future__ import annotations

import copy
import random
from typing import NamedTuple

from .compiler import NO_COLOR, Compiled
from .errors import IllegalAction, RuleRuntimeError

CHANCE = -1
TERMINAL = -2
MAX_TRIGGER_DEPTH = 32
MAX_DRAW = 500                 # cards one action may draw


class Action(NamedTuple):
    kind: str          # play draw keep color player card challenge respond jump_in catch perform chance
    value: object      # card id, color id, seat, bool, outcome name, or None
    call: bool = False  # declare (call UNO) while playing this card
    color: int | None = None   # a play that also answers the card's first color choice


class CardView(NamedTuple):
    card: int
    name: str
    color: int
    kind: int
    wild: bool
    points: float
    attacks: bool = False       # its rules make an attack (public knowledge of the rulebook)


class Observation(NamedTuple):
    player: int
    decision: str | None
    hand: list
    top: CardView | None
    color: int
    hand_sizes: list
    scores: list
    direction: int
    side: int
    draw_pile_size: int
    current: int
    next: int
    attacker: int | None
    colors: list
    color_names: list


class Decision:
    """What the engine asks next: a player's choice among `options`, or (with `probs`) a chance node.
    `resume(state, env, action)` carries on with the answer."""
    __slots__ = ("kind", "player", "options", "resume", "env", "probs")

    def __init__(self, kind, player, options, resume, env, probs=None):
        self.kind, self.player, self.options, self.resume, self.env, self.probs = kind, player, options, resume, env, probs


class Attack:
    __slots__ = ("attacker", "target", "penalty", "body", "kind", "card", "legal", "state", "passed", "env")

    def __init__(self, attacker, target, penalty, body, kind, card, legal, env):
        self.attacker, self.target, self.penalty, self.body = attacker, target, penalty, body
        self.kind, self.card, self.legal, self.env = kind, card, legal, env
        self.state = "pending"      # pending | resolve | cancelled
        self.passed = False


MATCH_ANY, MATCH_RULE = 1, 2         # play_options' match bits (Game.face_mask)
DRAW = Action("draw", None)
KEEP = Action("keep", None)
_KIND_ORDER = {"play": 0, "play_many": 1, "respond": 0, "jump_in": 0, "draw": 5, "keep": 5}


class Game:
    """An immutable factory: a compiled rulebook with its options."""

    def __init__(self, rules: Compiled, players: int = 4, *, rounds: str = "rulebook", log_events: bool = False,
                 turn_cap: int | None = None, perform_chance: float | None = None, stop_after_round: bool = False,
                 track_kinds: frozenset = frozenset()):
        if not rules.min_players <= players <= rules.max_players:
            raise RuleRuntimeError(f"`{rules.name}` is for {rules.min_players} to {rules.max_players} players, not {players}")
        if rounds not in ("rulebook", "single", "match"):
            raise ValueError(f"rounds must be rulebook, single or match, not {rounds!r}")
        self.rules = rules
        self.players = players
        self.rounds = rounds
        self.log_events = log_events
        self.turn_cap = turn_cap or rules.turn["turn_cap"]
        self.perform_chance = perform_chance
        self.stop_after_round = stop_after_round
        self.track_kinds = frozenset(track_kinds)      # kinds whose players are recorded (compare)
        sizes = {len(d) for d in rules.deck}
        if len(sizes) > 1:
            raise RuleRuntimeError(f"the sides' decks have different sizes ({', '.join(map(str, sorted(sizes)))}): "
                                   "double-faced cards need as many faces on each side")
        self.declaration = rules.declarations[0] if rules.declarations else None
        self._actions: dict = {}             # (card count, side) -> the play actions of every card
        self._deck_faces = None              # the deck's faces per side, when every game has the same
        self._side_tables: dict = {}         # side -> State.set_side's tables, for that deck
        self._jump_verdicts: dict = {}       # (side, top face) -> face -> may jump in (jump_window)
        # play_options' match bits: MATCH_ANY (a wild: matches anything), MATCH_RULE (a kind with
        # its own playability rule: evaluated), one bit per color (NO_COLOR included) and one per
        # kind. A card is a candidate when its face's mask shares a bit with the target:
        # MATCH_ANY | MATCH_RULE | the current color's bit | the top card's kind's bit.
        ncolor = len(rules.color_names) + 1
        self.color_bit = [1 << (2 + c) for c in range(ncolor)]            # index: color + 1
        self.kind_bit = [1 << (2 + ncolor + k) for k in range(len(rules.kinds))]
        self.face_mask = [MATCH_RULE if not rules.plain_match[kind] else MATCH_ANY if rules.wild_kind[kind]
                          else self.color_bit[color + 1] | self.kind_bit[kind] for color, kind in rules.faces]
        # what the hot path asks of the rules on every play and turn, answered once
        no_play_hooks = rules.jump_in is None and "play" not in rules.triggers
        self.quiet_play = [no_play_hooks and not k.effects.get("play") for k in rules.kinds]   # kind -> nothing runs
        self.turn_start_hooks = "turn_start" in rules.triggers
        self.draw_only_when_stuck = rules.turn["draw_only_when_stuck"]

    def play_actions(self, n, side):
        """The play actions of cards 0..n-1, built once: without and with the call, and those that
        also name each color of `side` (a play of a card whose rule begins with `choose color`)."""
        key = (n, side)
        if key not in self._actions:
            colors = self.rules.side_colors[side]
            plain, call = [Action("play", c, False) for c in range(n)], [Action("play", c, True) for c in range(n)]
            self._actions[key] = (
                [(a,) for a in plain], list(zip(plain, call)),
                [tuple(Action("play", c, False, col) for col in colors) for c in range(n)],
                [tuple(Action("play", c, k, col) for col in colors for k in (False, True)) for c in range(n)])
        return self._actions[key]

    def new_state(self, seed: int = 0, *, deal: bool = True) -> "State":
        s = State(self, seed)
        if deal:
            s.setup_cards(None)
            s.draw_pile = list(range(s.ncards))
            s.push(begin_round)
            s.run()
        return s


class State:
    def __init__(self, game: Game, seed: int):
        self.game = game
        self.rules = game.rules
        n = self.n = game.players
        self.rng = random.Random(seed)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.card_faces: list[list[int]] = []      # side -> card -> face
        self.side = 0
        self.ccolor: list[int] = []                # active side: card -> color
        self.ckind: list[int] = []                 # active side: card -> kind
        self.color = NO_COLOR
        self.direction = 1
        self.current = 0
        self.dealer = n - 1
        self.scores = [0] * n
        self.seats = list(range(n))                # seat -> original player
        self.out = [False] * n
        self.skips = [0] * n
        self.next_override = None
        self.attack: Attack | None = None
        self.agenda: list[tuple] = []
        self.decision: Decision | None = None
        self.log: list[dict] | None = [] if game.log_events else None
        self.streak = 0
        self.first_card = False
        self.exposed: list[int] = []
        self.redraw = False
        self.round = 0
        self.turns = 0
        self.depth = 0
        self.round_winner = None
        self.winner = None
        self.outcome = None                        # win | stalled | error
        self.error = None
        self.terminal = False
        self.turns_per_round: list[int] = []
        self.counts = {"drawn": 0, "challenges": 0, "challenges_won": 0, "catches": 0, "reshuffles": 0,
                       "plays": 0, "decisions": 0, "turn_decisions": 0}
        self.history: list[Action] = []
        self.tracked_players: set[int] = set()          # original players who played a tracked kind

    # -- cards ----------------------------------------------------------------------------------
    def setup_cards(self, cards: list[tuple[int, ...]] | None):
        """Make the physical cards: one face per side. None: the rulebook's deck."""
        rules = self.rules
        cached = None
        from_deck = cards is None
        if cards is None:
            per_side = [list(d) for d in rules.deck]
            if len(per_side) > 1 and rules.pair_sides_shuffled:
                for side in per_side[1:]:
                    self.shuffle(side)
            else:
                cached = self.game._deck_faces      # the same deck every game: built once
            cards = list(zip(*per_side)) if cached is None else None
        if cached is not None:
            self.card_faces = cached
        else:
            self.card_faces = [[c[s] for c in cards] for s in range(len(rules.sides))]
            if from_deck and not (len(rules.deck) > 1 and rules.pair_sides_shuffled):
                self.game._deck_faces = self.card_faces
        self.ncards = len(self.card_faces[0])
        self.shares_deck = self.card_faces is self.game._deck_faces   # every game of the factory has this deck
        self._own_tables = {}                 # side -> set_side's tables, when this deck is the game's own
        self.set_side(self.side)

    def set_side(self, side):
        """Show `side` of every card. What depends only on the deck and the side is built once per
        game factory when every game has the same deck (never changed in place, so shared), else
        once per game."""
        self.side = side
        game = self.game
        cache = game._side_tables if self.shares_deck else self._own_tables
        tables = cache.get(side)
        if tables is None:
            tables = cache[side] = self._build_side_tables(side)
        self.ccolor, self.ckind, self._match, self._views = tables   # _views: card -> CardView (observe)

    def _build_side_tables(self, side):
        """Per card, for one side: its color and kind, and what play_options reads on every turn (its
        match mask, its play actions without and with the call); and room for its CardViews."""
        rules, game = self.rules, self.game
        faces = self.card_faces[side]
        ccolor = [rules.faces[f][0] for f in faces]
        ckind = [rules.faces[f][1] for f in faces]
        plain, plain_call, fused, fused_call = game.play_actions(len(faces), side)
        is_fused = rules.fused_color
        opts = [fused[c] if is_fused[k] else plain[c] for c, k in enumerate(ckind)]
        opts_call = [fused_call[c] if is_fused[k] else plain_call[c] for c, k in enumerate(ckind)]
        match = (faces, [game.face_mask[f] for f in faces], opts, opts_call, game.color_bit, game.kind_bit,
                 not all(rules.plain_match), rules.turn["multi_play"])
        return ccolor, ckind, match, [None] * len(faces)

    def color_of(self, card):
        return self.ccolor[card]

    def kind_of(self, card):
        return self.ckind[card]

    def face_of(self, card):
        return self.card_faces[self.side][card]

    def card_name(self, card) -> str:
        if card is None:
            return "nothing"
        return self.rules.face_names[self.card_faces[self.side][card]]

    def full_name(self, card) -> str:
        if len(self.card_faces) == 1:
            return self.card_name(card)
        return " / ".join(self.rules.face_names[f[card]] for f in self.card_faces)

    # -- seats ----------------------------------------------------------------------------------
    def step(self, p, direction=None):
        d = self.direction if direction is None else direction
        n = self.n
        for _ in range(n):
            p = (p + d) % n
            if not self.out[p]:
                return p
        return p

    def next_of(self, p):
        return self.step(p)

    def previous_of(self, p):
        return self.step(p, -self.direction)

    def others_in_order(self, p):
        out, q = [], p
        for _ in range(self.n - 1):
            q = self.step(q)
            if q == p:
                break
            out.append(q)
        return tuple(out)

    def active_count(self):
        return self.n - sum(self.out)

    # -- agenda ---------------------------------------------------------------------------------
    def push(self, fn, *args):
        self.agenda.append((fn,) + args)

    def push_actions(self, actions, env):
        ag = self.agenda
        for a in reversed(actions):
            ag.append((a, env))

    def run(self):
        ag = self.agenda
        try:
            while self.decision is None and ag and not self.terminal:
                f = ag.pop()
                if len(f) == 2:
                    f[0](self, f[1])              # most frames: a rule action and its env
                else:
                    f[0](self, *f[1:])
        except RuleRuntimeError as e:
            self.fail(e)
        if self.decision is None and not ag and not self.terminal:
            self.fail(RuleRuntimeError("the game stopped with nothing left to do"))

    def fail(self, err: RuleRuntimeError):
        self.terminal = True
        self.outcome = "error"
        self.error = err
        self.decision = None
        self.emit("error", message=str(err))

    def ask(self, kind, player, options, resume, env, probs=None):
        self.decision = Decision(kind, player, options, resume, env, probs)

    def emit(self, type_, **fields):
        if self.log is not None:
            ev = {"type": type_, "round": self.round}
            ev.update(fields)
            self.log.append(ev)

    # -- the OpenSpiel surface ------------------------------------------------------------------
    def current_player(self):
        if self.terminal:
            return TERMINAL
        d = self.decision
        if d.probs is not None:
            return CHANCE
        return d.player

    def is_chance_node(self):
        return not self.terminal and self.decision.probs is not None

    def chance_outcomes(self):
        d = self.decision
        return list(zip(d.options, d.probs))

    def legal_actions(self):
        """The legal actions, deterministic and sorted (plays by card face, then the rest)."""
        if self.terminal:
            return []
        if self.decision.kind not in ("turn", "drawn", "respond", "jump_in", "card"):
            return list(self.decision.options)          # already in the engine's fixed order
        faces = self.card_faces[self.side]

        def key(a):
            v = a.value
            if isinstance(v, tuple):
                v = (1, tuple(faces[c] for c in v))
            elif a.kind in ("play", "respond", "jump_in", "card") and v is not None:
                v = (0, faces[v])
            else:
                v = (2, -1 if v is None else v if isinstance(v, int) else str(v))
            return (_KIND_ORDER.get(a.kind, 9), v, a.call, -1 if a.color is None else a.color)
        return sorted(self.decision.options, key=key)

    def apply_action(self, action: Action):
        if self.terminal:
            raise IllegalAction("the game is over")
        d = self.decision
        if action not in d.options:
            raise IllegalAction(f"`{self.action_name(action)}` is not one of the legal actions: "
                                + ", ".join(self.action_name(a) for a in d.options))
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action):
        d = self.decision
        self.decision = None
        if d.probs is None:
            self.counts["decisions"] += 1
        if self.log is not None:
            self.history.append(action)
        try:
            d.resume(self, d.env, action)
        except RuleRuntimeError as e:
            self.fail(e)
            return
        if self.agenda or self.decision is None:
            self.run()

    def is_terminal(self):
        return self.terminal

    def returns(self):
        out = [0.0] * self.n
        if self.winner is not None:
            for p in range(self.n):
                out[p] = 1.0 if p == self.winner else -1.0 / (self.n - 1)
        return out

    def clone(self):
        return copy.deepcopy(self, {id(self.game): self.game})

    def action_name(self, a: Action) -> str:
        k, v = a.kind, a.value
        if k == "play_many":
            return "play " + " + ".join(self.card_name(c) for c in v) + (
                " and call " + self.game.declaration[0].upper() if a.call else "")
        if k in ("play", "respond", "jump_in"):
            if v is None:
                return {"respond": "accept", "jump_in": "don't jump in"}.get(k, k)
            verb = {"play": "play", "respond": "answer with", "jump_in": "jump in with"}[k]
            color = f" ({self.rules.color_names[a.color]})" if a.color is not None else ""
            return f"{verb} {self.card_name(v)}{color}" + (" and call " + self.game.declaration[0].upper() if a.call else "")
        if k == "color":
            return f"color {self.rules.color_names[v]}"
        if k == "player":
            return f"choose seat {v}"
        if k == "card":
            return f"give {self.card_name(v)}"
        if k == "challenge":
            return "challenge" if v else "don't challenge"
        if k == "catch":
            return f"catch seat {v}" if v is not None else "don't catch"
        if k == "perform":
            return "succeed" if v else "fail"
        if k == "chance":
            return f"outcome {v}"
        return k

    def invariant_violations(self) -> list[str]:
        """What is wrong with this state, if anything: the engine's invariants, checked by the
        tests after every action and by bench/soak.py over many games."""
        out = []
        zones = self.draw_pile + self.discard + [c for h in self.hands for c in h]
        if sorted(zones) != list(range(self.ncards)):
            out.append("cards are not conserved: some card is in no zone or in two")
        if self.color != NO_COLOR and self.color not in self.rules.side_colors[self.side]:
            out.append(f"the current color `{self.rules.color_names[self.color]}` is not of the side in play")
        if not self.terminal:
            d = self.decision
            if d is None:
                out.append("the game is not over and nobody is asked anything")
            else:
                if d.player is not None and not (0 <= d.player < self.n and not self.out[d.player]):
                    out.append(f"seat {d.player} is asked but is not seated")
                if not d.options:
                    out.append("a decision without options")
        if any(k < 0 for k in self.skips) or any(sc is None for sc in self.scores):
            out.append("a negative count")
        return out

    # -- observation (what one player may see) --------------------------------------------------
    def observe(self, p) -> "Observation":
        """What player p may see: their own hand, the table, everyone's hand sizes. Never other hands."""
        d = self.decision
        attacker = None
        if d is not None and isinstance(d.env, Attack):
            attacker = d.env.attacker
        top = self.discard[-1] if self.discard else None
        kinds = self.rules.kinds
        views = self._views
        return Observation(
            player=p, decision=d.kind if d else None,
            hand=[views[c] or self.card_view(p, c) for c in self.hands[p]],
            top=None if top is None else CardView(top, self.card_name(top), self.ccolor[top], self.ckind[top],
                                                  kinds[self.ckind[top]].wild, 0),
            color=self.color, hand_sizes=[len(h) for h in self.hands], scores=list(self.scores),
            direction=self.direction, side=self.side, draw_pile_size=len(self.draw_pile),
            current=self.current, next=self.next_of(p), attacker=attacker,
            colors=list(self.rules.side_colors[self.side]),
            color_names=self.rules.color_names)

    def card_view(self, p, c) -> CardView:
        """Card c as its holder p sees it; kept for the side when its points are the card's alone."""
        k = self.rules.kinds[self.ckind[c]]
        view = CardView(c, self.card_name(c), self.ccolor[c], k.id, k.wild, self.points(p, c), k.has_attack)
        if k.points_of_card:
            self._views[c] = view
        return view

    # -- primitives the rules use ---------------------------------------------------------------
    def draw_cards(self, p, n, why="draw", emit=True):
        n = min(int(n), MAX_DRAW)
        if n <= 0 or p is None:
            return []
        got = []
        hand, pile = self.hands[p], self.draw_pile
        for _ in range(n):
            if not pile and not self.reshuffle():
                self.emit("draw_short", player=p, wanted=n, got=len(got))
                break
            c = pile.pop()
            hand.append(c)
            got.append(c)
        if got:
            self.counts["drawn"] += len(got)
            if p in self.exposed:
                self.exposed.remove(p)
            if emit and self.log is not None:
                self.emit("draw", player=p, count=len(got), cards=[self.card_name(c) for c in got], why=why)
        return got

    def shuffle(self, cards):
        """Shuffle in place with the game's generator: Fisher-Yates drawing one random() per swap
        (random.shuffle's integer draws cost half again as much; a shuffle begins every game)."""
        random_ = self.rng.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(random_() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    def reshuffle(self):
        if len(self.discard) <= 1:
            return False
        top = self.discard.pop()
        self.draw_pile[:0] = self.discard
        self.discard[:] = [top]
        self.shuffle(self.draw_pile)
        self.counts["reshuffles"] += 1
        self.emit("reshuffle", size=len(self.draw_pile))
        return True

    def set_color(self, c):
        if c != NO_COLOR and c not in self.rules.side_colors[self.side]:
            raise RuleRuntimeError(f"`{self.rules.color_names[c]}` is not a color of the side in play "
                                   f"(`{self.rules.sides[self.side]}`)")
        self.color = c
        self.emit("color", color=self.rules.color_names[c] if c != NO_COLOR else None)

    def playable(self, p, card):
        """May p play `card` now? The kind's own rule (if it has one), then matching: a wild, the
        current color or the top card's kind. play_options inlines the matching for plain kinds."""
        k = self.rules.kinds[self.ckind[card]]
        if not self.rules.plain_match[k.id]:
            env = {"me": p, "_who": p, "card": card}
            if k.playable is not None and not k.playable(self, env):
                return False
            if k.legal is not None and k.challenge is None and not k.legal(self, env):
                return False
        if k.wild:
            return True
        if not self.discard:
            return True
        return self.ccolor[card] == self.color or self.ckind[card] == self.ckind[self.discard[-1]]

    def why_unplayable(self, p, card, how="play") -> str:
        """Why `card` may not be played by p now, in words (for scripts, the API and people)."""
        d = self.decision
        name = self.card_name(card)
        if d is None:
            return "the game is over"
        if d.player != p:
            return f"it is seat {d.player}'s decision, not seat {p}'s"
        if d.kind == "drawn":
            return f"only the card just drawn may be played now, not `{name}`"
        if d.kind == "respond":
            return f"`{name}` cannot answer this attack"
        if d.kind == "jump_in":
            return f"`{name}` is not identical to the top card"
        k = self.rules.kinds[self.ckind[card]]
        env = {"me": p, "_who": p, "card": card}
        if k.playable is not None and not k.playable(self, env):
            return f"`{name}` may not be played now (its `playable when` rule is false)"
        if k.legal is not None and k.challenge is None and not k.legal(self, env):
            return f"`{name}` may not be played now (its `legal when` rule is false)"
        top = self.discard[-1] if self.discard else None
        color = self.rules.color_names[self.color] if self.color != NO_COLOR else "none"
        return f"`{name}` does not match the top card `{self.card_name(top)}` (color {color})"

    def play_options(self, p, cards=None):
        """The play actions of p now: one card per face (the first held), in the order of the
        faces' last copies in hand, reversed (legal_actions() sorts them for people)."""
        hand = self.hands[p] if cards is None else cards
        faces, cmask, opts, opts_call, color_bit, kind_bit, rule_kinds, multi = self._match
        discard = self.discard
        if discard:
            target = MATCH_ANY | MATCH_RULE | color_bit[self.color + 1] | kind_bit[self.ckind[discard[-1]]]
            legal = {faces[c]: c for c in reversed(hand) if cmask[c] & target}.values()
        else:
            legal = {faces[c]: c for c in reversed(hand)}.values()
        if rule_kinds:
            legal = [c for c in legal if cmask[c] != MATCH_RULE or self.playable(p, c)]
        decl = self.game.declaration
        table = opts_call if decl is not None and len(self.hands[p]) - 1 == decl[1] else opts
        out = [a for c in legal for a in table[c]]
        if multi and cards is None:
            out += self.multi_play_options(p, [a.value for a in out if not a.call])
        return out

    def multi_play_options(self, p, starts):
        """Several cards of one kind played together, the first of them playable: every order of
        up to four cards (the last one's color becomes current)."""
        from itertools import permutations
        faces = self.card_faces[self.side]
        decl = self.game.declaration
        out, seen = [], set()
        for c in starts:
            same = [x for x in self.hands[p] if x != c and self.ckind[x] == self.ckind[c]]
            for k in range(1, min(3, len(same)) + 1):
                for rest in permutations(same, k):
                    key = (faces[c],) + tuple(faces[x] for x in rest)
                    if key in seen:
                        continue
                    seen.add(key)
                    cards = (c,) + rest
                    out.append(Action("play_many", cards, False))
                    if decl is not None and len(self.hands[p]) - len(cards) == decl[1]:
                        out.append(Action("play_many", cards, True))
        out.sort(key=lambda a: (tuple(faces[x] for x in a.value), a.call))
        return out

    def place(self, p, card, call):
        """Move a card from p's hand to the discard pile: the common part of every way to play."""
        ckind = self.ckind
        kind = ckind[card]
        game = self.game
        legal_rule = self.rules.kinds[kind].legal
        legal = True if legal_rule is None else bool(legal_rule(self, {"me": p, "_who": p, "card": card}))
        discard = self.discard
        self.streak = self.streak + 1 if discard and ckind[discard[-1]] == kind else 1
        self.hands[p].remove(card)
        discard.append(card)
        c = self.ccolor[card]
        if c != NO_COLOR:
            self.color = c
        self.first_card = False
        self.current = p
        self.counts["plays"] += 1
        if game.track_kinds and kind in game.track_kinds:
            self.tracked_players.add(self.seats[p])
        decl = game.declaration
        if decl is not None:
            if p in self.exposed:
                self.exposed.remove(p)
            if len(self.hands[p]) == decl[1]:
                if call:
                    self.emit("uno", player=p)
                else:
                    self.exposed.append(p)
        return legal

    def fire(self, event, env, card=None):
        triggers = self.rules.triggers.get(event)
        if not triggers:
            return
        if self.depth >= MAX_TRIGGER_DEPTH:
            raise RuleRuntimeError(f"rules triggered each other more than {MAX_TRIGGER_DEPTH} deep (on {event})")
        for t in reversed(triggers):
            if card is not None:
                if t.kind is not None and t.kind != self.ckind[card]:
                    continue
                if t.color is not None and t.color != self.ccolor[card]:
                    continue
            tenv = dict(env)
            tenv.pop("_color", None)
            if t.cond is not None and not t.cond(self, tenv):
                continue
            self.push(_depth_down)
            self.push_actions(t.actions, tenv)
            self.push(_depth_up)

    # -- rounds and scoring ---------------------------------------------------------------------
    def points(self, p, card):
        k = self.rules.kinds[self.ckind[card]]
        return k.points(self, {"me": p, "_who": p, "card": card})

    def hand_points(self, p):
        return sum(self.points(p, c) for c in self.hands[p])

    def end_round(self, winner, reason="win"):
        self.turns_per_round.append(self.turns)
        self.round_winner = winner
        self.agenda.clear()
        self.attack = None
        if reason == "stalled":
            self.emit("round_end", winner=None, reason="stalled")
            self.finish(None, "stalled")
            return
        sc = self.rules.scoring
        gained = {}
        if sc["method"] == "each_scores_own_hand":
            for p in range(self.n):
                if not self.out[p]:
                    gained[p] = self.hand_points(p)
        else:
            gained[winner] = sum(self.hand_points(p) for p in range(self.n) if p != winner and not self.out[p])
        for p, g in gained.items():
            self.scores[p] += g
        self.emit("round_end", winner=winner, reason=reason)
        for p, g in gained.items():
            self.emit("score", player=p, points=g, total=self.scores[p])
        self.fire("round_end", {"me": winner, "_who": winner})
        self.push(_after_round)

    def match_over(self):
        """The match winner if the match is over, else None."""
        sc = self.rules.scoring
        rounds_mode = self.game.rounds
        env = {"me": 0, "_who": 0}
        lowest = sc["method"] == "each_scores_own_hand"
        alive = [p for p in range(self.n) if not self.out[p]]

        def best():
            return min(alive, key=lambda p: (self.scores[p], p)) if lowest else max(alive, key=lambda p: (self.scores[p], -p))

        if rounds_mode == "single" or (rounds_mode == "rulebook" and sc["single_round"]) or (
                sc["target"] is None and sc["rounds"] is None and sc["eliminate_above"] is None):
            return self.round_winner
        if sc["eliminate_above"] is not None:
            limit = sc["eliminate_above"](self, env)
            for p in alive:
                if self.scores[p] > limit:
                    self.out[p] = True
                    self.emit("eliminated", player=p)
            alive = [p for p in range(self.n) if not self.out[p]]
            if len(alive) <= 1:
                return alive[0] if alive else self.round_winner
        if sc["target"] is not None and any(self.scores[p] >= sc["target"](self, env) for p in alive):
            return best()
        if sc["rounds"] is not None and self.round >= sc["rounds"](self, env):
            return best()
        return None

    def finish(self, winner, outcome):
        self.winner = winner
        self.outcome = outcome
        self.terminal = True
        self.decision = None
        self.agenda.clear()
        self.emit("game_end", winner=winner, outcome=outcome)


# ---------------------------------------------------------------------------------------------
# frames: fn(state, *args)

def _depth_up(s):
    s.depth += 1


def _depth_down(s):
    s.depth -= 1


def begin_round(s: State, shuffle: bool = True):
    s.round += 1
    s.turns = 0
    if shuffle:
        cards = s.draw_pile + s.discard
        for h in s.hands:
            cards += h
            h.clear()
        s.discard = []
        if s.side != 0:
            s.set_side(0)
        cards.sort()
        s.shuffle(cards)
        s.draw_pile = cards
    s.direction = 1
    s.color = NO_COLOR
    s.skips = [0] * s.n
    s.exposed = []
    s.streak = 0
    s.attack = None
    if s.round > 1:
        s.dealer = s.step(s.dealer, 1)
    s.emit("round_start", dealer=s.dealer)
    s.push(deal)
    if s.rules.cut is not None:
        chance, actions = s.rules.cut
        env = {"me": s.dealer, "_who": s.dealer}
        p = min(1.0, max(0.0, float(chance(s, env))))
        s.ask("chance", None, [Action("chance", "exact"), Action("chance", "missed")], _cut_answer,
              (env, actions), [p, 1.0 - p])


def _cut_answer(s, ctx, a):
    env, actions = ctx
    s.emit("cut", dealer=s.dealer, exact=a.value == "exact")
    if a.value == "exact":
        s.push_actions(actions, env)


def deal(s: State):
    hand = int(s.rules.hand_size(s, {"me": s.dealer, "_who": s.dealer}))
    order = []
    p = s.dealer
    for _ in range(s.active_count()):
        p = s.step(p, 1)
        order.append(p)
    # one card at a time around the table from the top of the pile (its end), while it lasts
    pile, k = s.draw_pile, len(order)
    dealt = max(0, min(hand * k, len(pile)))
    top = pile[len(pile) - dealt:][::-1]
    del pile[len(pile) - dealt:]
    for i, p in enumerate(order):
        s.hands[p] += top[i::k]
    s.emit("deal", hand=hand)
    s.fire("round_start", {"me": s.dealer, "_who": s.dealer})
    s.push(turn_up)


def turn_up(s: State):
    if not s.draw_pile and not s.reshuffle():
        raise RuleRuntimeError("there is no card to turn up")
    card = s.draw_pile.pop()
    s.discard.append(card)
    s.color = s.ccolor[card]
    s.first_card = True
    s.streak = 1
    s.current = s.dealer
    s.redraw = False
    s.emit("turn_up", card=s.card_name(card))
    env = {"me": s.dealer, "_who": s.dealer, "card": card}
    s.push(after_turn_up)
    effects = s.rules.kinds[s.ckind[card]].effects.get("turn_up")
    if effects:
        s.push_actions(effects, env)


def after_turn_up(s: State):
    if s.redraw:
        s.push(turn_up)
        return
    advance(s)


def advance(s: State):
    if s.next_override is not None:
        nxt, s.next_override = s.next_override, None
    else:
        nxt = (s.current + s.direction) % s.n
        if s.out[nxt]:
            nxt = s.step(s.current)
        skips = s.skips
        guard = 0
        while skips[nxt] > 0 and guard < 4 * s.n:
            skips[nxt] -= 1
            if s.log is not None:
                s.emit("skip", player=nxt)
            nxt = s.step(nxt)
            guard += 1
    begin_turn(s, nxt)


def begin_turn(s: State, p):
    s.current = p
    s.turns += 1
    game = s.game
    if s.turns > game.turn_cap:
        s.turns = game.turn_cap          # the turns actually played
        s.end_round(None, "stalled")
        return
    if s.exposed:
        s.exposed = []
    if s.log is not None:
        s.emit("turn", player=p)
    if game.turn_start_hooks:
        s.push(turn_decision, p)
        s.fire("turn_start", {"me": p, "_who": p})
    else:
        turn_decision(s, p)


def turn_decision(s: State, p):
    opts = s.play_options(p)
    if not (opts and s.game.draw_only_when_stuck):
        opts.append(DRAW)
    s.decision = Decision("turn", p, opts, _turn_answer, p)


def _turn_answer(s: State, p, a: Action):
    s.counts["turn_decisions"] += 1
    if a.kind == "play":
        play_card(s, p, a.value, a.call, a.color)
    elif a.kind == "play_many":
        play_many(s, p, a.value, a.call)
    else:
        turn_draw(s, p)


def play_many(s: State, p, cards, call):
    """Several cards of one kind at once: each is placed and each one's rules run, in order."""
    envs = []
    for i, card in enumerate(cards):
        legal = s.place(p, card, call and i == len(cards) - 1)
        s.emit("play", player=p, card=s.card_name(card), **({"uno": True} if call and i == len(cards) - 1 else {}))
        envs.append((card, {"me": p, "_who": p, "card": card, "legal_play": legal}))
    s.push(end_play, p)
    for card, env in reversed(envs):
        s.fire("play", env, card)
        effects = s.rules.kinds[s.ckind[card]].effects.get("play")
        if effects:
            s.push_actions(effects, env)


def play_card(s: State, p, card, call, color=None, just_drawn=False):
    legal = s.place(p, card, call)
    if s.log is not None:
        s.emit("play", player=p, card=s.card_name(card), **({"uno": True} if call else {}))
    if s.game.quiet_play[s.ckind[card]]:
        end_play(s, p)                       # nothing to run: straight on (the common number card)
        return
    env = {"me": p, "_who": p, "card": card, "legal_play": legal}
    if just_drawn:
        env["just_drawn"] = True
    if color is not None:
        env["_color"] = color          # the answer to the card's first `choose color`, given with the play
    if s.rules.jump_in is not None:
        s.push(jump_window, p, card, env, 0)
    else:
        after_play(s, p, card, env)


def after_play(s: State, p, card, env):
    effects = s.rules.kinds[s.ckind[card]].effects.get("play")
    if not effects and "play" not in s.rules.triggers:
        end_play(s, p)                       # nothing to run: straight on (the common number card)
        return
    s.push(end_play, p)
    s.fire("play", env, card)
    if effects:
        s.push_actions(effects, env)


def jump_window(s: State, p, card, env, i):
    others = s.others_in_order(p)
    cond = s.rules.jump_in
    faces = s.card_faces[s.side]
    by_faces = s.rules.jump_in_of_faces
    if by_faces:        # the condition reads only the faces of the card and the top card: its verdict
        # on a face holds for every player, and for every game of this deck (kept per side and top)
        key = (s.side, faces[s.discard[-1]])
        shared = s.game._jump_verdicts.setdefault(key, {}) if s.shares_deck else {}
    while i < len(others):
        q = others[i]
        i += 1
        verdict = shared if by_faces else {}        # face -> may q jump in with it
        env_q = {"me": q, "_who": q}
        for c in s.hands[q]:                 # may q jump in at all? (the options come sorted below)
            f = faces[c]
            ok = verdict.get(f)
            if ok is None:
                env_q["card"] = c
                ok = verdict[f] = bool(cond(s, env_q))
            if ok:
                opts = _jump_options(s, q, cond)
                s.ask("jump_in", q, opts, _jump_answer, (p, card, env, i, q))
                return
    after_play(s, p, card, env)


def _jump_options(s, q, cond):
    opts, seen = [], set()
    decl = s.game.declaration
    calls = decl is not None and len(s.hands[q]) - 1 == decl[1]
    fused = s.rules.fused_color
    for c in sorted(s.hands[q], key=s.face_of):
        f = s.face_of(c)
        if f in seen or not cond(s, {"me": q, "_who": q, "card": c}):
            continue
        seen.add(f)
        for col in (s.rules.side_colors[s.side] if fused[s.ckind[c]] else (None,)):
            opts.append(Action("jump_in", c, False, col))
            if calls:
                opts.append(Action("jump_in", c, True, col))
    opts.append(Action("jump_in", None))
    return opts


def _jump_answer(s: State, ctx, a: Action):
    p, card, env, i, q = ctx
    if a.value is None:
        jump_window(s, p, card, env, i)
        return
    s.emit("jump_in", player=q, card=s.card_name(a.value))
    play_card(s, q, a.value, a.call, a.color)


def end_play(s: State, p):
    hands = s.hands
    if not (hands[p] and all(hands)):        # someone may have gone out (eliminated seats hold nothing)
        for q in (p,) + s.others_in_order(p):
            if not s.out[q] and not hands[q]:
                s.end_round(q)
                return
    if s.exposed:
        s.push(advance)
        s.push(catch_window, list(s.exposed), 0)
    else:
        advance(s)


def catch_window(s: State, exposed, i):
    while exposed:
        x = exposed[0]
        decl = s.game.declaration
        if x not in s.exposed or len(s.hands[x]) != decl[1]:
            exposed.pop(0)
            i = 0
            continue
        others = s.others_in_order(x)
        if i < len(others):
            q = others[i]
            s.ask("catch", q, [Action("catch", x), Action("catch", None)], _catch_answer, (exposed, i, x))
            return
        exposed.pop(0)
        i = 0
    s.exposed = []


def _catch_answer(s: State, ctx, a: Action):
    exposed, i, x = ctx
    if a.value is None:
        s.push(catch_window, exposed, i + 1)
        return
    s.counts["catches"] += 1
    s.emit("catch", player=s.others_in_order(x)[i], caught=x)
    if x in s.exposed:
        s.exposed.remove(x)
    exposed.pop(0)
    s.push(catch_window, exposed, 0)
    s.push_actions(s.game.declaration[2], {"me": x, "_who": x})


def turn_draw(s: State, p):
    rules = s.rules
    got = []
    if rules.turn["draw_until_playable"]:
        got = _draw_until(s, p, lambda c: s.playable(p, c), "until_playable")
    else:
        got = s.draw_cards(p, 1)
    last = got[-1] if got else None
    if last is None or "draw" not in rules.triggers:
        after_turn_draw(s, p, last)          # no draw rule to run first
        return
    s.push(after_turn_draw, p, last)
    s.fire("draw", {"me": p, "_who": p, "card": last}, last)


def after_turn_draw(s: State, p, card):
    turn = s.rules.turn
    mode = turn["drawn_card"]
    if card is not None and mode != "is_kept" and card in s.hands[p]:
        opts = s.play_options(p, [card])            # empty when the drawn card is not playable
        when = turn.get("drawn_card_when")
        if opts and (when is None or when(s, {"me": p, "_who": p, "card": card})):
            if mode == "may_play":
                opts.append(KEEP)
            s.ask("drawn", p, opts, _drawn_answer, p)
            return
    advance(s)


def _drawn_answer(s: State, p, a: Action):
    if a.kind == "play":
        play_card(s, p, a.value, a.call, a.color, just_drawn=True)
    else:
        s.emit("keep", player=p)
        advance(s)


def _after_round(s: State):
    winner = s.match_over()
    if winner is not None or s.active_count() <= 1:
        s.finish(winner if winner is not None else s.round_winner, "win")
        return
    if s.game.stop_after_round:            # scenarios stop when the round ends
        s.terminal = True
        s.outcome = "round_over"
        s.decision = None
        s.agenda.clear()
        return
    s.push(begin_round)


# ---- attacks ------------------------------------------------------------------------------------

def attack_window(s: State, atk: Attack):
    if atk.state == "cancelled":
        s.attack = None
        return
    if atk.state == "resolve":
        resolve(s, atk)
        return
    t = atk.target
    opts = []
    faces = s.card_faces[s.side]
    seen = set()
    for r in s.rules.reactions:
        if atk.kind not in r.to:
            continue
        for c in s.hands[t]:
            if s.ckind[c] in r.with_ and faces[c] not in seen:
                if r.cond is None or r.cond(s, {"me": t, "_who": t, "card": c, "target": t,
                                                "attacker": atk.attacker, "penalty": atk.penalty}):
                    seen.add(faces[c])
                    opts.append(Action("respond", c, False))
                    decl = s.game.declaration
                    if decl is not None and len(s.hands[t]) - 1 == decl[1]:
                        opts.append(Action("respond", c, True))
    if opts:
        opts.sort(key=lambda a: (faces[a.value], a.call))
        opts.append(Action("respond", None))
        s.ask("respond", t, opts, _respond_answer, atk)
        return
    challenge_offer(s, atk)


def _respond_answer(s: State, atk: Attack, a: Action):
    if a.value is None:
        challenge_offer(s, atk)
        return
    t, card = atk.target, a.value
    reaction = next(r for r in s.rules.reactions if atk.kind in r.to and s.ckind[card] in r.with_)
    legal = s.place(t, card, a.call)
    s.emit("respond", player=t, card=s.card_name(card), to=atk.attacker)
    old_target = t
    atk.kind, atk.card, atk.legal = s.ckind[card], card, legal
    env = {"me": t, "_who": t, "card": card, "target": t, "attacker": atk.attacker, "penalty": atk.penalty,
           "legal_play": legal}
    s.push(after_reaction, atk, old_target)
    s.push_actions(reaction.actions, env)


def after_reaction(s: State, atk: Attack, old_target):
    if atk.state == "cancelled":
        s.attack = None
        return
    if atk.target == old_target and atk.state == "pending":
        resolve(s, atk)
        return
    attack_window(s, atk)


def challenge_offer(s: State, atk: Attack):
    k = s.rules.kinds[atk.kind]
    if k.challenge is None:
        resolve(s, atk)
        return
    s.ask("challenge", atk.target, [Action("challenge", True), Action("challenge", False)], _challenge_answer, atk)


def _challenge_answer(s: State, atk: Attack, a: Action):
    if not a.value:
        resolve(s, atk)
        return
    s.counts["challenges"] += 1
    if not atk.legal:
        s.counts["challenges_won"] += 1
    s.emit("challenge", player=atk.target, attacker=atk.attacker, legal=atk.legal,
           hand=[s.card_name(c) for c in s.hands[atk.attacker]] if s.log is not None else None)
    env = {"me": atk.attacker, "_who": atk.target, "card": atk.card, "target": atk.target,
           "attacker": atk.attacker, "penalty": atk.penalty, "legal": atk.legal, "challenger": atk.target}
    s.push(after_challenge, atk)
    s.push_actions(s.rules.kinds[atk.kind].challenge, env)


def after_challenge(s: State, atk: Attack):
    if atk.state == "cancelled":
        s.attack = None
        return
    resolve(s, atk)


def resolve(s: State, atk: Attack):
    s.attack = None
    s.emit("attack", attacker=atk.attacker, target=atk.target, penalty=atk.penalty)
    env = dict(atk.env)
    env.update({"_who": atk.target, "target": atk.target, "attacker": atk.attacker, "penalty": atk.penalty})
    s.push_actions(atk.body, env)


# ---- the primitives of rule actions: act_<kind>(state, env, who, ex, kw) ---------------------------

def bind(impl, who, where, ex, **kw):
    """A compiled action: evaluate its subject(s), then run the primitive for each, naming the rule
    (file:line:col) in any runtime error."""
    def run(s, env):
        try:
            players = who(s, env)
            if len(players) == 1:
                impl(s, env, players[0], ex, kw)
            else:
                for p in reversed(players):
                    s.agenda.append((_run_for, impl, env, p, ex, kw, where))
        except RuleRuntimeError as e:
            raise RuleRuntimeError(e.args[0].split(": ", 1)[-1] if e.where else e.args[0], e.where or where) from None
        except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
            raise RuleRuntimeError(f"the rule failed: {e}", where) from None
    run.where = where
    return run


def _run_for(s, impl, env, p, ex, kw, where):
    try:
        impl(s, env, p, ex, kw)
    except RuleRuntimeError:
        raise
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
        raise RuleRuntimeError(f"the rule failed: {e}", where) from None


def act_draw(s, env, p, ex, kw):
    s.draw_cards(p, ex["count"](s, env))


def _draw_until(s, p, stop, why):
    got = []
    for _ in range(MAX_DRAW):
        one = s.draw_cards(p, 1, why, emit=False)
        got += one
        if not one or stop(one[0]):
            break
    if got and s.log is not None:
        s.emit("draw", player=p, count=len(got), cards=[s.card_name(c) for c in got], why=why)
    return got


def act_draw_until_color(s, env, p, ex, kw):
    want = ex["color"](s, env)
    _draw_until(s, p, lambda c: s.ccolor[c] == want, "until_color")


def act_draw_until_playable(s, env, p, ex, kw):
    _draw_until(s, p, lambda c: s.playable(p, c), "until_playable")


def act_lose_turn(s, env, p, ex, kw):
    if p is not None:
        s.skips[p] = 1          # the player's next turn is lost: once, however often it is said


def act_play_again(s, env, p, ex, kw):
    s.next_override = p
    s.emit("play_again", player=p)


def act_reverse(s, env, p, ex, kw):
    s.direction = -s.direction
    s.emit("reverse", direction="clockwise" if s.direction == 1 else "counterclockwise")


def act_choose_color(s, env, p, ex, kw):
    given = env.pop("_color", None)
    if given is not None and p == env["me"]:
        s.set_color(given)              # answered with the play
        return
    opts = [Action("color", c) for c in s.rules.side_colors[s.side]]
    s.ask("color", p, opts, _color_answer, p)


def _color_answer(s, p, a):
    s.set_color(a.value)


def act_set_color(s, env, p, ex, kw):
    s.set_color(ex["color"](s, env))


def act_cycle_color(s, env, p, ex, kw):
    cols = s.rules.side_colors[s.side]
    i = cols.index(s.color) if s.color in cols else -s.direction
    s.set_color(cols[(i + s.direction) % len(cols)])


def act_choose_player(s, env, p, ex, kw):
    cands = []
    where = ex.get("where")
    for q in range(s.n):
        if s.out[q] or (kw["other"] and q == p):
            continue
        if where is not None:
            env["candidate"] = q
            ok = where(s, env)
            del env["candidate"]
            if not ok:
                continue
        cands.append(q)
    name = kw["name"]
    if not cands:
        env[name] = None
        s.emit("no_choice", player=p)
        return
    if len(cands) == 1:
        env[name] = cands[0]
        return
    s.ask("player", p, [Action("player", q) for q in cands], _player_answer, (env, name))


def _player_answer(s, ctx, a):
    env, name = ctx
    env[name] = a.value
    s.emit("choose", player=a.value)


def _track_exposure(s, *players):
    for q in players:
        if q in s.exposed:
            s.exposed.remove(q)


def act_swap_hands(s, env, p, ex, kw):
    q = ex["with"](s, env)
    if q is None or q == p:
        return
    s.hands[p], s.hands[q] = s.hands[q], s.hands[p]
    _track_exposure(s, p, q)
    s.emit("swap_hands", player=p, other=q)


def act_pass_hands(s, env, p, ex, kw):
    alive = [q for q in range(s.n) if not s.out[q]]
    new = list(s.hands)
    for q in alive:
        new[s.next_of(q)] = s.hands[q]
    s.hands = new
    s.exposed = []
    s.emit("pass_hands", direction="clockwise" if s.direction == 1 else "counterclockwise")


def act_shuffle_hands(s, env, p, ex, kw):
    cards = []
    for q in range(s.n):
        cards += s.hands[q]
        s.hands[q] = []
    s.shuffle(cards)
    order = s.others_in_order(p) + (p,)
    for i, c in enumerate(cards):
        s.hands[order[i % len(order)]].append(c)
    s.exposed = []
    s.emit("shuffle_hands", player=p)


def act_flip(s, env, p, ex, kw):
    s.set_side((s.side + 1) % len(s.rules.sides))
    s.discard.reverse()
    top = s.discard[-1]
    s.color = s.ccolor[top]
    s.emit("flip", side=s.rules.sides[s.side], top=s.card_name(top))


def act_give(s, env, p, ex, kw):
    q = ex["to"](s, env)
    n = int(ex["count"](s, env))
    _give_next(s, (p, q, n))


def _give_next(s, ctx):
    p, q, n = ctx
    if q is None or n <= 0 or not s.hands[p] or p == q:
        return
    opts = sorted({s.face_of(c): Action("card", c) for c in s.hands[p]}.items())
    opts = [a for _, a in opts]
    if len(opts) == 1:
        _give_answer(s, ctx, opts[0])
        return
    s.ask("card", p, opts, _give_answer, ctx)


def _give_answer(s, ctx, a):
    p, q, n = ctx
    s.hands[p].remove(a.value)
    s.hands[q].append(a.value)
    _track_exposure(s, p, q)
    s.emit("give", player=p, to=q, card=s.card_name(a.value))
    s.push(_give_next, (p, q, n - 1))


def act_give_hand(s, env, p, ex, kw):
    q = ex["to"](s, env)
    if q is None or q == p:
        return
    s.hands[q] += s.hands[p]
    s.hands[p] = []
    _track_exposure(s, p, q)
    s.emit("give_hand", player=p, to=q)


def act_exchange(s, env, p, ex, kw):
    q = ex["with"](s, env)
    if q is None or q == p:
        return
    s.push(_exchange_pick, [p, q], [], 0)


def _exchange_pick(s, pair, picked, i):
    if i == 2:
        (p, q), (a, b) = pair, picked
        if a is not None:
            s.hands[p].remove(a); s.hands[q].append(a)
        if b is not None:
            s.hands[q].remove(b); s.hands[p].append(b)
        _track_exposure(s, p, q)
        s.emit("exchange", player=p, other=q)
        return
    who = pair[i]
    if not s.hands[who]:
        picked.append(None)
        s.push(_exchange_pick, pair, picked, i + 1)
        return
    opts = [a for _, a in sorted({s.face_of(c): Action("card", c) for c in s.hands[who]}.items())]
    s.ask("card", who, opts, _exchange_answer, (pair, picked, i))


def _exchange_answer(s, ctx, a):
    pair, picked, i = ctx
    picked.append(a.value)
    s.push(_exchange_pick, pair, picked, i + 1)


def act_discard_color(s, env, p, ex, kw):
    c = ex["color"](s, env)
    keep = [x for x in s.hands[p] if s.ccolor[x] != c]
    gone = [x for x in s.hands[p] if s.ccolor[x] == c]
    s.hands[p] = keep
    s.discard[-1:-1] = gone
    s.emit("discard_color", player=p, count=len(gone))


def act_score(s, env, p, ex, kw):
    s.scores[p] += ex["amount"](s, env)
    s.emit("score", player=p, points=ex["amount"](s, env), total=s.scores[p])


def act_eliminate(s, env, p, ex, kw):
    s.out[p] = True
    s.discard[-1:-1] = s.hands[p]
    s.hands[p] = []
    s.emit("eliminated", player=p)
    if s.active_count() <= 1:
        s.finish(next(q for q in range(s.n) if not s.out[q]), "win")


def act_swap_seats(s, env, p, ex, kw):
    q = ex["with"](s, env)
    if q is None or q == p:
        return
    for arr in (s.hands, s.scores, s.seats):
        arr[p], arr[q] = arr[q], arr[p]
    _track_exposure(s, p, q)
    s.emit("swap_seats", player=p, other=q)


def act_reveal(s, env, p, ex, kw):
    if not s.draw_pile and not s.reshuffle():
        env["revealed"] = s.discard[-1]
        return
    card = s.draw_pile.pop()
    s.discard.append(card)
    if s.ccolor[card] != NO_COLOR:
        s.color = s.ccolor[card]
    env["revealed"] = card
    s.emit("reveal", card=s.card_name(card))


def act_redraw(s, env, p, ex, kw):
    card = s.discard.pop()
    s.draw_pile.append(card)
    s.shuffle(s.draw_pile)
    s.redraw = True
    s.emit("redraw", card=s.card_name(card))


def act_attack(s, env, p, ex, kw):
    t = ex["target"](s, env)
    pen = ex["penalty"](s, env) if "penalty" in ex else 0
    card = env.get("card")
    atk = Attack(env["me"], t, pen, kw["body"], s.ckind[card] if card is not None else None, card,
                 env.get("legal_play", True), env)
    s.attack = atk
    s.push(attack_window, atk)


def _pending(s):
    if s.attack is None:
        raise RuleRuntimeError("no attack is pending")
    return s.attack


def act_add_penalty(s, env, p, ex, kw):
    _pending(s).penalty += ex["amount"](s, env)


def act_pass_attack(s, env, p, ex, kw):
    atk = _pending(s)
    atk.attacker = env["me"]
    atk.target = ex["to"](s, env)
    atk.passed = True
    s.emit("pass_attack", player=env["me"], to=atk.target, penalty=atk.penalty)


def act_cancel_attack(s, env, p, ex, kw):
    _pending(s).state = "cancelled"


def act_resolve_attack(s, env, p, ex, kw):
    _pending(s).state = "resolve"


def act_take_back(s, env, p, ex, kw):
    atk = _pending(s)
    if atk.card in s.discard:
        s.discard.remove(atk.card)
        s.hands[atk.attacker].append(atk.card)
        s.emit("take_back", player=atk.attacker, card=s.card_name(atk.card))


def act_if(s, env, p, ex, kw):
    for cond, then in kw["branches"]:
        if cond(s, env):
            s.push_actions(then, env)
            return
    if kw["otherwise"]:
        s.push_actions(kw["otherwise"], env)


def act_chance(s, env, p, ex, kw):
    outs = kw["outcomes"]
    weights = [max(0.0, float(w(s, env))) for _, w, _ in outs]
    total = sum(weights)
    if total <= 0:
        raise RuleRuntimeError(f"chance `{kw['name']}` has no outcome with a positive weight")
    s.ask("chance", None, [Action("chance", name) for name, _, _ in outs], _chance_answer, (env, outs),
          [w / total for w in weights])


def _chance_answer(s, ctx, a):
    env, outs = ctx
    s.emit("chance", outcome=a.value)
    for name, _, actions in outs:
        if name == a.value:
            s.push_actions(actions, env)


def act_perform(s, env, p, ex, kw):
    chance = s.game.perform_chance if s.game.perform_chance is not None else float(kw["chance"](s, env))
    chance = min(1.0, max(0.0, chance))
    s.ask("perform", p, [Action("perform", True), Action("perform", False)], _perform_answer, (env, kw, p),
          [chance, 1.0 - chance])


def _perform_answer(s, ctx, a):
    env, kw, p = ctx
    s.emit("perform", player=p, name=kw["name"], success=bool(a.value))
    # inside a perform's blocks the default subject is the performer
    s.push_actions(kw["success"] if a.value else kw["failure"], dict(env, _who=p))
