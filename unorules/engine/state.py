"""The engine's state: one playthrough of a Game (game.py).

OpenSpiel style: a State is one playthrough with `current_player()`, `legal_actions()`,
`apply_action()`, chance nodes with named outcomes, `is_terminal()`, `returns()`, `clone()`.
Control flow is an explicit agenda (a stack of frames `(fn, *args)`): rule actions push frames,
and an action that needs a choice sets `state.decision` and stops the run until the choice is
applied. The table (seats, zones, matching) is in table.py, rounds in rounds.py, the turn flow in turns.py, attack windows in attacks.py, the rule actions' primitives
in primitives.py; what a player or a person is shown of a state in views.py.

Nothing here knows a card: cards are ints whose faces, kinds and effects come from the rulebook.
"""
from __future__ import annotations

import copy
import random

from unorules.errors import IllegalAction, RuleRuntimeError
from .spaces import StateSpaces
from .table import Table
from .types import CHANCE, MAX_STEPS, MAX_TRIGGER_DEPTH, MAX_TURN_DECISIONS, NO_COLOR, TERMINAL, Action, Decision
from .views import StateViews

# What State.__deepcopy__ copies by hand: lists that hold only numbers or immutable tuples, lists
# of such lists, dicts of numbers or immutable tuples, dicts of numbers or lists of numbers; and the
# attributes that only ever hold numbers, flags, names or None (tests/test_clone.py checks these).
_FLAT_LISTS = ("draw_pile", "pile_colors", "scores", "seats", "eliminated", "gone", "out", "places", "round_winners",
               "pending_winners", "rounds_won", "skips", "exposed", "turns_per_round", "drawn_per_round", "last_turn",
               "recent_plays", "_history", "_chance_drawn", "aside", "winners")
_LISTS_OF_FLAT_LISTS = ("hands", "piles", "fronts")      # and `reached`, when not None (clone)
_FLAT_DICTS = ("counts", "judged", "open_hands")
_DICTS_OF_FLAT = ("memory", "set_at")
_SCALARS = ("n", "ncards", "side", "color", "direction", "current", "dealer", "pile", "round", "turns", "game_turns",
            "turn_first_decision", "turn_serial", "turn_draws", "turn_drawn", "knocked_out", "depth", "streak", "new_decks", "_seed",
            "first_card", "redraw", "terminal", "several_piles", "shares_deck", "_pile_loop", "leader", "next_dealer",
            "next_leader", "next_override", "false_caller", "round_winner", "winner", "outcome", "pause_before_turn",
            "_rng_when_asked")      # a tuple of numbers
_SHARED = ("game", "rules", "team_of")
_SHARED_DECK = frozenset(("card_faces", "ccolor", "ckind", "_match", "_views"))   # when shares_deck
_BY_HAND = frozenset(_FLAT_LISTS + _LISTS_OF_FLAT_LISTS + _FLAT_DICTS + _DICTS_OF_FLAT + _SCALARS + _SHARED
                     + ("shown", "tracked_players", "rng", "reached"))

class State(Table, StateViews, StateSpaces):
    def __init__(self, game, seed: int):
        self.game = game
        self.rules = game.rules
        n = self.n = game.players
        self.rng = random.Random(seed)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw_pile: list[int] = []
        self.aside: list[int] = []                 # cards set aside: out of play until the round ends
        self.new_decks = 0                         # fresh decks opened (table.new_deck)
        self.open_hands: dict[int, int | None] = {}   # seat -> shown to all until (a turn serial, or None: the round)
        self.false_caller = None                   # who called falsely in the play under way (turns.end_play)
        self.fronts: list[list[int]] = [[] for _ in range(n)]   # seat -> cards in front of them, face up (fronts.py)
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
        self.team_of = game.team_of                # seat -> team (each seat its own without teams)
        self.eliminated = [False] * n              # out of the match
        self.out = [False] * n                     # not in this round: eliminated, or gone out and placed
        self.gone = [False] * n                    # eliminated, from the match or this round: no cards, turns or questions
        hand_rules = game.rules.triggers.get("hand_reaches", ())
        self.reached = [[False] * n for _ in hand_rules] if hand_rules else None   # `on hand reaches N`, seen so
        self.places: list[int] = []                # this round's finishing order (who went out first, ...)
        self.round_winners: list[int] = []
        self.rounds_won = [0] * n                  # seat -> rounds won (with their team) this match
        self.pending_winners: list[int] = []       # named by `win round`: the round ends once the play is over
        self.next_dealer = None                    # decided when a round ends, for the next one
        self.next_leader = None
        self.leader = None                         # who plays first this round (None: left of the dealer)
        self.turn_draws = 0                        # cards drawn by the turn's draws this turn
        self.turn_drawn = None                     # the card this turn's draw gave (`just_drawn`), or None
        self.knocked_out = 0                       # players eliminated this round (`eliminated_count`)
        self.several_piles = len(self.rules.piles) > 1
        self._pile_loop = False
        self.empty_piles()
        self.skips = [0] * n
        self.next_override = None
        self.attack = None                # the types.Attack under way
        self.judged: dict[int, tuple] = {}        # card -> (player, color then, (round, play)): a `legal when` judged
        self.agenda: list[tuple] = []
        self.pause_before_turn = False             # stop between turns (types.PAUSED): a search's playouts
        self.decision: Decision | None = None
        self.log: list[dict] | None = [] if game.log_events else None
        self.streak = 0
        self.first_card = False
        self.exposed: list[int] = []
        self.redraw = False
        self.round = 0
        self.turns = 0
        self.game_turns = 0           # over all the game's rounds (MAX_GAME_TURNS)
        self.turn_first_decision = 0  # counts["decisions"] when the turn began (MAX_TURN_DECISIONS)
        self.depth = 0
        self.round_winner = None
        self.winner = None
        self.winners: list[int] = []               # the match's winning seats (a team's members)
        self.outcome = None                        # win | stalled | error
        self.error = None
        self.terminal = False
        self.turns_per_round: list[int] = []
        self.drawn_per_round: list[int] = []       # cards drawn in each round (counts["drawn"] by round)
        self.counts = {"drawn": 0, "challenges": 0, "challenges_won": 0, "catches": 0, "reshuffles": 0,
                       "plays": 0, "decisions": 0, "turn_decisions": 0}
        self._history: list[tuple] = []            # every action applied, with the side then in play
        self._seed = None                          # the seed, for a state made by Game.new_state (replayable)
        self._chance_drawn: list[int] = []         # which of _history's chance outcomes were drawn on self.rng
        self._rng_when_asked = None                # the generator's state when the chance node was posed
        self.recent_plays: list[tuple[int, int]] = []     # (player, card) of the last plays, for observations
        # memory: counters and flags (per game a value, per player a list by seat), when each
        # per-player value was last set (a turn serial), and what each player was shown of others' hands
        self.memory: dict[str, object] = {}
        self.set_at: dict[str, list[int]] = {}
        self.turn_serial = 0
        self.last_turn: list[int] = [-1] * n
        for c in self.rules.counters:
            self.reset_counter(c)
        self.shown: dict[int, dict[int, list[int]]] = {}
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

    def reset_counter(self, c):
        empty = False if c["kind"] == "flag" else 0
        if c["per"] == "player":
            self.memory[c["name"]] = [empty] * self.n
            self.set_at[c["name"]] = [-1] * self.n
        else:
            self.memory[c["name"]] = empty
            self.set_at[c["name"]] = [-1, -1]       # the turn serial when it was set, and by whom

    def kinds_in_play(self) -> list[int]:
        """The card kinds of the rulebook's deck on the side in play (what a player may name)."""
        faces = self.rules.faces
        return sorted({faces[f][1] for f in self.rules.deck[self.side]})

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

    # -- agenda ---------------------------------------------------------------------------------
    def push(self, fn, *args):
        self.agenda.append((fn,) + args)

    def push_actions(self, actions, env):
        ag = self.agenda
        for a in reversed(actions):
            ag.append((a, env))

    def run(self):
        ag = self.agenda
        steps = 0
        try:
            while self.decision is None and ag and not self.terminal:
                f = ag.pop()
                steps += 1
                if steps > MAX_STEPS:        # named rules that each do the next twice, loops in loops
                    raise RuleRuntimeError(f"one play ran more than {MAX_STEPS:,} steps of rules without a decision",
                                           getattr(f[0], "where", None))
                if len(f) == 2:
                    f[0](self, f[1])              # most frames: a rule action and its env
                else:
                    f[0](self, *f[1:])
                if self.reached is not None and not self.terminal:
                    self.watch_hands()
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

    def ask(self, kind, player, options, resume, env, probs=None, worth=None):
        if probs is None and self.counts["decisions"] - self.turn_first_decision >= MAX_TURN_DECISIONS:
            self.agenda.clear()                 # a turn without end (attacks answered back and forth): stalled
            self.game.flow.end_round(self, None, "stalled")
            return
        self.decision = Decision(kind, player, options, resume, env, probs, worth)
        if probs is not None:
            self._rng_when_asked = self.rng.getstate()

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

    def apply_action(self, action: "Action | int"):
        if self.terminal:
            raise IllegalAction("the game is over")
        if isinstance(action, int):            # an action id of the rulebook's action space (spaces.py)
            action = self.action_of_id(action)
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
        elif self.rng.getstate() != self._rng_when_asked:    # its outcome was drawn on the game's generator
            self._chance_drawn.append(len(self._history))
        self._history.append((action, self.side))      # the side names the faces of its cards (history())
        try:
            d.resume(self, d.env, action)
            if self.reached is not None and not self.terminal:
                self.watch_hands()           # the answer itself may have grown a hand (a draw asked at once)
        except RuleRuntimeError as e:
            self.fail(e)
            return
        if self.agenda or self.decision is None:
            self.run()

    def is_terminal(self):
        return self.terminal

    def returns(self):
        """+1 for each winner (a team's members together), and the losers share -1 each winner's."""
        out = [0.0] * self.n
        if self.winners:
            k = len(self.winners)
            for p in range(self.n):
                out[p] = 1.0 if p in self.winners else -k / (self.n - k)
        return out

    def clone(self):
        return copy.deepcopy(self, {id(self.game): self.game})

    def __deepcopy__(self, memo):
        """An independent copy of the play; what belongs to the game factory (its rules, and the
        deck's tables every game of it shares, never changed in place) is shared, not copied.

        A search clones a state thousands of times a second, and deepcopy walks every element, so
        what the State's own attributes hold is copied by hand, by what they are (the lists above):
        numbers shared, lists of numbers and of immutable tuples copied flat, and only the rest
        (the agenda, the decision, an attack, an error, anything not named here) deep. Each copy
        goes into the memo, so what else refers to a list (the discard pile is one of the piles,
        an env may be in the agenda and the decision) refers to the copy."""
        new = State.__new__(State)
        memo[id(self)] = new
        memo.setdefault(id(self.game), self.game)
        memo.setdefault(id(self.rules), self.rules)
        memo.setdefault(id(self.team_of), self.team_of)
        d = self.__dict__
        nd = new.__dict__
        nd.update(d)                 # the scalars and the shared tables as they are; the rest is replaced below
        for k in _FLAT_LISTS:
            v = d[k]
            nd[k] = memo[id(v)] = v[:]
        for k in _LISTS_OF_FLAT_LISTS:
            v = d[k]
            nd[k] = memo[id(v)] = [memo.setdefault(id(x), x[:]) for x in v]
        for k in _FLAT_DICTS:
            v = d[k]
            nd[k] = memo[id(v)] = v.copy()
        for k in _DICTS_OF_FLAT:
            v = d[k]
            nd[k] = memo[id(v)] = {key: memo.setdefault(id(x), x[:]) if type(x) is list else x
                                   for key, x in v.items()}
        nd["shown"] = {p: {q: cards[:] for q, cards in seen.items()} for p, seen in self.shown.items()}
        nd["tracked_players"] = set(self.tracked_players)
        if self.reached is not None:
            nd["reached"] = [seen[:] for seen in self.reached]
        rng = nd["rng"] = random.Random.__new__(random.Random)     # unseeded: setstate gives it the whole state
        rng.setstate(self.rng.getstate())
        if self.shares_deck:
            rest = d.keys() - _BY_HAND - _SHARED_DECK
        else:
            rest = d.keys() - _BY_HAND
        deepcopy = copy.deepcopy
        for k in rest:
            nd[k] = deepcopy(d[k], memo)
        return new

    def watch_hands(self):
        """`on hand reaches N`, after each step of the rules: fires for each player whose hand has
        grown to N or more since the last look (once, until it drops below N again). A question
        already asked waits until those rules have run, and is asked again; one left for a player
        they eliminated is answered for them (reask)."""
        hands = self.hands
        due = []
        for i, t in enumerate(self.rules.triggers["hand_reaches"]):
            seen = self.reached[i]
            for p in range(self.n):
                big = not self.gone[p] and len(hands[p]) >= t.count(self, {"me": p, "@who": p})
                if big and not seen[p]:
                    due.append((t, p))
                seen[p] = big
        if not due:
            return
        if self.decision is not None:
            d, self.decision = self.decision, None
            self.push(reask, d)
        for t, p in reversed(due):
            self.push_trigger(t, {"me": p, "@who": p})

    def fire(self, event, env, card=None):
        triggers = self.rules.triggers.get(event)
        if not triggers:
            return
        for t in reversed(triggers):
            if card is not None:
                if t.kind is not None and t.kind != self.ckind[card]:
                    continue
                if t.color is not None and t.color != self.ccolor[card]:
                    continue
            if self.depth >= MAX_TRIGGER_DEPTH:
                raise RuleRuntimeError(f"rules triggered each other more than {MAX_TRIGGER_DEPTH} deep (on {event})",
                                       t.where)
            self.push_trigger(t, env)

    def push_trigger(self, t, env):
        tenv = dict(env)
        tenv.pop("@color", None)
        self.push(depth_down)
        if t.cond is None:
            self.push_actions(t.actions, tenv)
        else:       # judged when the trigger runs: after the card's own effect and earlier triggers
            self.push(run_trigger, t, tenv)
        self.push(depth_up)

    # -- rounds and scoring ---------------------------------------------------------------------
    def points(self, p, card):
        k = self.rules.kinds[self.ckind[card]]
        return k.points(self, {"me": p, "@who": p, "card": card})

    def hand_points(self, p):
        return sum(self.points(p, c) for c in self.hands[p])

    def finish(self, winner, outcome):
        self.winner = winner
        self.winners = [] if winner is None else self.team_members(winner)
        self.outcome = outcome
        self.terminal = True
        self.decision = None
        self.agenda.clear()
        self.emit("game_end", winner=winner, outcome=outcome)


def reask(s, d):
    """A question held back while `on hand reaches` rules ran: asked again, or, where those rules
    eliminated its player, answered for them: their turn ends; anything else is declined where it
    can be, else its first option is taken."""
    if d.player is None or not s.gone[d.player]:
        s.decision = d
        return
    if d.kind in ("turn", "drawn"):
        s.game.flow.advance(s)
        return
    d.resume(s, d.env, next((a for a in d.options if a.value is None or a.value is False), d.options[0]))


def run_trigger(s, t, env):
    if t.cond(s, env):
        s.push_actions(t.actions, env)


def depth_up(s):
    s.depth += 1


def depth_down(s):
    s.depth -= 1
