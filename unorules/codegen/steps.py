"""The step API on generated code: a game played by the code generator.py makes for "external"
seats, which stops at each decision (a Python generator: it yields the deciding seat, the ids of
its legal actions in the engine's order and what an observation reads, and is sent the index of
the chosen one). It plays the engine's very games ("cards" representation: the engine's random
stream for the deck and for chance), so a `StepState` answers as the engine's State would: the
current player, the legal action ids, the observation tensor, the returns (tests/test_steps.py
holds the two equal, step by step). The engine stays the reference and the fallback: `Stepper.of`
says why a game cannot be stepped here, and the adapters then use the engine.

A StepState has the State methods the learning adapters call (`current_player`,
`legal_action_ids`, `apply_action`, `observation_tensor`, `returns`, `clone`, `history`, ...) and
`engine_state()`: the engine's State of the same position, replayed once and then kept in step,
for what needs the engine (an engine agent, a search)."""
from __future__ import annotations

from unorules.engine.spaces import HISTORY, seat_argument
from unorules.engine.turns import begin_turn
from unorules.engine.types import NO_COLOR, PAUSED, TERMINAL
from unorules.errors import IllegalAction
from .expressions import NotCovered
from .generated import Program
from .generator import EXTERNAL, shows_hands
from .turns import entry_start


class Stepper:
    """A game's generated code for stepping, made once per game and shared by its states."""

    def __init__(self, game, entry: bool = False):
        """`entry`: the code goes on from an engine State's position between two turns (Follower)."""
        self.game = game
        self.program = Program(game, (EXTERNAL,) * game.players, "cards", entry=entry)
        ns = self.program.namespace
        self.faces = ns["FACES"]                      # card -> face (side 0: stepped games have one side)
        self.ckind, self.ccolor = ns["CKIND"], ns["CCOLOR"]
        self.layout = game.observation_layout
        self.offsets, self.nfaces = self.layout.offsets, len(game.rules.faces)
        self.relative = [[(q - p) % game.players for q in range(game.players)] for p in range(game.players)]
        self.places = tuple(self.offsets[part] for part in (
            "hand", "top", "color", "side", "seat", "current", "direction", "hand_sizes", "scores", "uncalled",
            "history"))
        self.space = game.action_space
        # per counter or flag: where the observation holds it, kept per player, others' hidden
        self.counters = tuple((self.offsets[f"counter:{c['name']}"], c["per"] == "player", bool(c.get("hidden")))
                              for c in game.rules.counters)
        # where a stop holds what each seat was shown of others' hands (a rule shows them), else None
        self.shown_at = 11 + bool(self.counters) if shows_hands(game) else None

    @staticmethod
    def of(game) -> tuple["Stepper | None", str | None]:
        """(the game's Stepper, None), or (None, why its steps run on the engine)."""
        if game._stepper is not None:           # made once per game
            return game._stepper
        try:
            found = (Stepper(game), None)
        except NotCovered as e:
            found = (None, str(e))
        game._stepper = found
        return found

    def new_state(self, seed: int) -> "StepState":
        return StepState(self, seed)


class StepState:
    __slots__ = ("stepper", "game", "rules", "seed", "n", "terminal", "record", "_run", "_at", "_player", "_ids",
                 "_history", "_engine")

    def __init__(self, stepper: Stepper, seed: int):
        self._begin(stepper, seed, stepper.program._play_quiet(seed, (), None, set()))

    def _begin(self, stepper: Stepper, seed, run):
        """Start the code's run `run` and go to its first stop."""
        self.stepper, self.game, self.rules = stepper, stepper.game, stepper.game.rules
        self.seed, self.n = seed, stepper.game.players
        self.terminal, self.record, self._history, self._engine = False, None, [], None
        self._run = run
        self._stop(None)

    def _stop(self, index):
        """Run the code to its next stop, sent the index chosen at the last: a decision (the seat,
        its actions' ids, then STOP_STATE's values and the attack pending), or the game's end."""
        self._at = at = next(self._run) if index is None else self._run.send(index)
        self._player, self._ids = at[0], at[1]
        if at[0] == TERMINAL:
            self._stop_at_end()

    def _stop_at_end(self):
        """The game's end, shown at the last stop; then the code returns its record."""
        self.terminal = True
        try:
            next(self._run)
        except StopIteration as end:
            self.record = end.value

    # ---- the State surface the adapters read --------------------------------------------------
    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self.terminal

    def is_chance_node(self) -> bool:
        return False                          # chance is drawn inside, on the game's stream

    def legal_action_ids(self) -> list[int]:
        return sorted(self._ids)

    def apply_action(self, action_id: int):
        if self.terminal:
            raise IllegalAction("the game is over")
        try:
            index = self._ids.index(action_id)
        except ValueError:
            space = self.stepper.space
            name = space.name(action_id) if isinstance(action_id, int) and 0 <= action_id < len(space) else repr(action_id)
            raise IllegalAction(f"`{name}` is not one of the legal actions: "
                                + ", ".join(space.name(i) for i in self._ids)) from None
        self._history.append(action_id)
        if self._engine is not None:
            self._engine_apply(action_id)
        self._at = at = self._run.send(index)        # _stop, inline: the step's hot path
        self._player, self._ids = at[0], at[1]
        if at[0] == TERMINAL:
            self._stop_at_end()

    def returns(self) -> list[float]:
        """+1 for the winner, and the others share -1 (State.returns); 0 each before the end."""
        out = [0.0] * self.n
        if self.terminal and self.record.winners:
            k = len(self.record.winners)
            for p in range(self.n):
                out[p] = 1.0 if p in self.record.winners else -k / (self.n - k)
        return out

    @property
    def outcome(self) -> str | None:
        """win | stalled | error, once the game is over (State.outcome)."""
        return self.record.outcome if self.record is not None else None

    def history(self) -> list[int]:
        return list(self._history)

    def action_to_string(self, i: int) -> str:
        return self.stepper.space.name(i)

    def card_name(self, c: int) -> str:
        return self.rules.face_names[self.stepper.faces[c]]

    # what the code shows at its stop (STOP_STATE), as the engine's State names it
    hands = property(lambda self: self._at[2])
    discard = property(lambda self: self._at[3])
    color = property(lambda self: self._at[4])
    direction = property(lambda self: self._at[5])
    current = property(lambda self: self._at[6])
    scores = property(lambda self: self._at[7])
    exposed = property(lambda self: self._at[8])
    recent_plays = property(lambda self: self._at[9])
    attack = property(lambda self: self._at[10])

    @property
    def ncards(self) -> int:
        return len(self.stepper.ckind)

    @property
    def ckind(self):
        return self.stepper.ckind

    @property
    def ccolor(self):
        return self.stepper.ccolor

    def clone(self) -> "StepState":
        """The same position, played again from the seed (a generator's frame cannot be copied)."""
        s = StepState(self.stepper, self.seed)
        for i in self._history:
            s.apply_action(i)
        return s

    def observation_tensor(self, p, out=None):
        """As engine/spaces.py's observation_tensor, from the code's locals: the parts a stepped
        game fills (generator.check_covered refuses the rules that set the others). Into `out` (zeros of
        the layout's size), else a list."""
        st = self.stepper
        if type(p) is not int or not 0 <= p < self.n:      # (a plain seat, the adapters' case, goes straight on)
            p = seat_argument("p", p, self.n)
        size = st.layout.size
        if out is not None and len(out) != size:
            raise ValueError(f"`out` has {len(out)} places; the observation has {size}")
        if out is None:
            out = w = [0.0] * size
        elif type(out) is list:
            w = out
        else:                                     # a numpy array of floats: written through its buffer (faster)
            try:
                w = memoryview(out)
            except TypeError:
                w = None
            if w is None or w.format not in ("f", "d") or w.ndim != 1:
                w = out
        n, faces, nf = self.n, st.faces, st.nfaces
        hand, top, color_at, side, seat, current, direction, hs, sc, unc, history = st.places
        _, _, hands, discard, color, turn, current_seat, scores, exposed, recent, attack = self._at[:11]
        for c in hands[p]:
            w[hand + faces[c]] += 1.0
        if discard:
            w[top + faces[discard[-1]]] = 1.0
        w[color_at + (color + 1 if color != NO_COLOR else 0)] = 1.0
        w[side] = 1.0
        w[seat + p] = 1.0
        w[current + (current_seat - p) % n] = 1.0
        w[direction] = float(turn)
        for q, r in enumerate(st.relative[p]):
            w[hs + r] = float(len(hands[q]))
            if scores[q]:
                w[sc + r] = float(scores[q])
        for q in exposed:
            w[unc + (q - p) % n] = 1.0
        if attack is not None:
            off = st.offsets
            attacker, target, penalty = attack
            w[off["attack"]] = 1.0
            w[off["penalty"]] = float(penalty or 0)
            if attacker is not None:
                w[off["attacker"] + (attacker - p) % n] = 1.0
            if target is not None:
                w[off["target"] + (target - p) % n] = 1.0
        if st.counters:                          # the counters' values close the stop's tuple
            for (place, per_player, hidden), v in zip(st.counters, self._at[11]):
                if not per_player:
                    w[place] = float(v)
                elif hidden:
                    w[place] = float(v[p])
                else:
                    for q, x in enumerate(v):
                        w[place + (q - p) % n] = float(x)
        if st.shown_at is not None:
            shown = st.offsets["shown"]
            for q, cards in self._at[st.shown_at].get(p, {}).items():
                at = shown + (q - p) % n * nf
                for c in cards:
                    w[at + faces[c]] += 1.0
        at, seats = history, history + nf - p
        row = nf + n
        for q, c in recent[:-HISTORY - 1:-1]:
            w[at + faces[c]] = 1.0
            w[seats + (q if q >= p else q + n)] = 1.0          # its seat relative to p: (q - p) % n
            at += row
            seats += row
        return out

    # ---- the engine's State of the same position ----------------------------------------------
    def engine_state(self):
        """The engine's State here: played once from the seed with these actions and chance drawn
        on the game's own stream (as simulate draws it), then kept in step with this one."""
        if self._engine is None:
            self._engine = self.game.new_state(self.seed)
            self._engine.play_chance()
            for i in self._history:
                self._engine_apply(i)
        return self._engine

    def _engine_apply(self, action_id):
        self._engine.apply_action(action_id)
        self._engine.play_chance()


# ---- a scenario's run followed in generated code --------------------------------------------------

class Follower(StepState):
    """Generated code entered at an engine State's position at the start of a turn (a scenario's
    `start: turn`) or between two turns (after a dealt start), stopped at each decision and sent the
    engine's answers (`apply_action`): `differences(s)` says where it stands elsewhere than the
    engine's State `s` (the deciding seat, the legal actions, every seat's observation). The
    position's cards are a scenario's own (ids of its cards only): each goes in as a card of the
    deck with its face."""

    __slots__ = ("outcome_", "winner_")

    def __init__(self, stepper: Stepper, state, seat: int | None = None):
        """`seat`: the State is about to begin that seat's turn (else it is paused between turns)."""
        self.outcome_ = self.winner_ = None
        of_face: dict = {}
        for card, face in enumerate(stepper.faces):
            of_face.setdefault(face, []).append(card)
        taken: dict = {}
        deck = []                             # the state's card -> a card of the deck with its face
        for face in state.card_faces[0]:
            k = taken.get(face, 0)
            cards = of_face.get(face, ())
            if k >= len(cards):
                raise NotCovered(f"a position holding more cards of face {face} than the deck")
            deck.append(cards[k])
            taken[face] = k + 1
        stepped = ([(q, deck[c]) for q, c in state.recent_plays],)
        if stepper.shown_at is not None:
            stepped += ({p: {q: [deck[c] for c in cards] for q, cards in seen.items()} for p, seen in state.shown.items()},)
        start = entry_start(state, deck, seat, stepped)
        rng = type(state.rng)()
        rng.setstate(state.rng.getstate())    # the deck's stream as it stands: reshuffles and chance alike
        self._begin(stepper, None, stepper.program.play_from(start, rng, None, (), set()))

    @staticmethod
    def enter(state) -> tuple["Follower | None", str | None]:
        """(a Follower of the engine State `state`, which is about to begin a turn and nothing else,
        or paused between two turns (`pause_before_turn`)), or (None, why generated code cannot go
        on from it)."""
        s = state
        starting = len(s.agenda) == 1 and s.agenda[0][0] is begin_turn and len(s.agenda[0]) == 2
        if not (starting or s.decision is PAUSED and not s.agenda):
            return None, "the position is not between two turns"
        for why, present in (("an attack under way", s.attack is not None), ("a seat out of the round", any(s.out)),
                             ("several piles", len(s.piles) != 1), ("two-sided cards", len(s.rules.sides) != 1)):
            if present:
                return None, f"the position has {why}"
        try:
            return Follower(Stepper(s.game, entry=True), s, s.agenda[0][1] if starting else None), None
        except NotCovered as e:
            return None, str(e)

    def _stop_at_end(self):
        self.terminal = True
        try:
            next(self._run)
        except StopIteration as end:
            self.outcome_, self.winner_, _ = end.value

    def differences(self, s) -> str | None:
        """Where this stop differs from the engine's State `s` (at a decision or at its end), or None."""
        if self.terminal != s.terminal:
            return (f"generated code {'has ended the round' if self.terminal else 'asks seat ' + str(self._player)}"
                    f" where the engine {'has ended it' if s.terminal else 'asks seat ' + str(s.decision.player)}")
        if s.terminal:
            outcome = "round_over" if self.outcome_ is None else self.outcome_
            if (outcome, self.winner_ if outcome == "win" else None) != (s.outcome, s.winner if s.outcome == "win" else None):
                return f"generated code ends with {outcome} (winner {self.winner_}), the engine with {s.outcome} (winner {s.winner})"
        else:
            if self._player != s.decision.player:
                return f"generated code asks seat {self._player}, the engine seat {s.decision.player}"
            mine, theirs = self.legal_action_ids(), s.legal_action_ids()
            if mine != theirs:
                name = self.stepper.space.name
                return (f"seat {self._player} may {', '.join(map(name, mine))} in generated code, but "
                        f"{', '.join(map(name, theirs))} on the engine")
        for p in range(self.n):
            if self.observation_tensor(p) != s.observation_tensor(p):
                return f"seat {p} sees another position in generated code ({self._what_differs(s, p)})"
        return None

    def _what_differs(self, s, p) -> str:
        """The observation's parts that differ, by name."""
        mine, theirs = self.observation_tensor(p), s.observation_tensor(p)
        offsets = sorted(self.stepper.offsets.items(), key=lambda kv: kv[1])
        parts = []
        for k, (part, at) in enumerate(offsets):
            end = offsets[k + 1][1] if k + 1 < len(offsets) else len(mine)
            if mine[at:end] != theirs[at:end]:
                parts.append(part)
        return ", ".join(parts)
