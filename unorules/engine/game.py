"""A Game: an immutable factory of States, given a compiled rulebook (compiler.py) and its
settings. It supplies the states it makes with the turn and round flow (types.Flow), which is why
it sits above them: state.py, rounds.py, turns.py and primitives.py call the flow through
`state.game.flow` and import none of each other's upper neighbours.

A Game pickles as its merged rulebook and settings and is compiled again where it is loaded."""
from __future__ import annotations

from unorules.errors import RuleRuntimeError
from .compiled import Compiled
from .rounds import begin_round, end_round
from .spaces import GameSpaces
from .state import State
from .table import MATCH_ANY, MATCH_RULE
from .turns import advance, play_extra, play_options_for_extra
from .types import Action, Flow

FLOW = Flow(begin_round=begin_round, end_round=end_round, advance=advance,
            play_options_for_extra=play_options_for_extra, play_extra=play_extra)


class Game(GameSpaces):
    """An immutable factory: a compiled rulebook with its options."""

    def __init__(self, rules: Compiled, players: int = 4, *, rounds: str = "rulebook", log_events: bool = False,
                 turn_cap: int | None = None, perform_chance: float | None = None, stop_after_round: bool = False,
                 track_kinds: frozenset = frozenset()):
        if not rules.min_players <= players <= rules.max_players:
            raise RuleRuntimeError(f"`{rules.name}` is for {rules.min_players} to {rules.max_players} players, not {players}")
        if rounds not in ("rulebook", "single", "match"):
            raise ValueError(f"rounds must be rulebook, single or match, not {rounds!r}")
        self.rules = rules
        self.flow = FLOW
        self.players = players
        self.rounds = rounds
        self.log_events = log_events
        self.turn_cap = turn_cap or rules.turn["turn_cap"]
        self.perform_chance = perform_chance
        self.stop_after_round = stop_after_round
        self.track_kinds = frozenset(track_kinds)      # kinds whose players are recorded (compare)
        teams = rules.teams
        if teams:
            size = teams["size"]
            if players % size or players == size:
                raise RuleRuntimeError(f"`{rules.name}` plays in teams of {size}: it needs a multiple of {size} "
                                       f"players (more than {size}), not {players}")
            count = players // size
            self.team_of = [p % count if teams["seating"] == "opposite" else p // size for p in range(players)]
        else:
            self.team_of = list(range(players))                # each player a team of one
        self.teams_view = tuple(self.team_of) if teams else ()  # what observations show of the teams
        self.any_time_kinds = frozenset(k.id for k in rules.kinds if k.at_any_time)
        sizes = {len(d) for d in rules.deck}
        if len(sizes) > 1:
            raise RuleRuntimeError(f"the sides' decks have different sizes ({', '.join(map(str, sorted(sizes)))}): "
                                   "double-faced cards need as many faces on each side")
        self.declaration = rules.declarations[0] if rules.declarations else None
        # `false uno call: ACTIONS`: the call is offered with more cards too, and costs these
        self.false_call = rules.false_calls.get(self.declaration[0]) if self.declaration else None
        self._action_space = self._observation_layout = None     # spaces.py: built when first asked for
        self._stepper = None         # (generated code stopped at each decision, or None; why not): codegen/steps.py
        self._playouts = {}          # playout policy -> a search's playouts in generated code, or why not (codegen/playouts.py)
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
        self.kind_bit = [1 << (2 + ncolor + rules.match_kind[k]) for k in range(len(rules.kinds))]   # `matches as` shares
        self.face_mask = [0 if rules.kinds[kind].at_any_time      # played out of turn only: never in a turn
                          else MATCH_RULE if not rules.plain_match[kind] else MATCH_ANY if rules.wild_kind[kind]
                          else self.color_bit[color + 1] | self.kind_bit[kind] for color, kind in rules.faces]
        # what the hot path asks of the rules on every play and turn, answered once
        no_play_hooks = rules.jump_in is None and "play" not in rules.triggers
        self.quiet_play = [no_play_hooks and not k.effects.get("play") for k in rules.kinds]   # kind -> nothing runs
        self.turn_start_hooks = "turn_start" in rules.triggers
        self.draw_only_when_stuck = rules.turn["draw_only_when_stuck"]
        self.resets = {when: [c for c in rules.counters if c.get("reset") == when]
                       for when in ("turn", "round", "next_turn", "at_next_turn")}
        self.turn_resets = bool(self.resets["turn"] or self.resets["next_turn"] or self.resets["at_next_turn"]
                                or rules.open_hands)
        self.round_resets = [c for c in rules.counters if c.get("reset")]       # all, at round start
        self.table_play_rules = rules.play_only_when is not None or rules.play_on_anything_when is not None

    def offers_call(self, left: int, on_turn: bool = False) -> bool:
        """Is the call (UNO) offered with a play that leaves `left` cards? At the declaration's
        count; and above it, with a play of the turn (a card drawn, `may play`), where a false call
        has a price (paid at the play's end, turns.end_play)."""
        d = self.declaration
        return d is not None and (left == d[1] or (on_turn and self.false_call is not None and left > d[1]))

    def __deepcopy__(self, memo):
        """A game is shared by its copies (its rules never change once compiled; what it caches is
        the same for every copy): a deep copy of anything that holds it never compiles again."""
        return self

    def __reduce__(self):
        """A game pickles as its merged rulebook and settings; unpickled, it is compiled again, once
        per process (a game pickled here is found again when unpickled here: never compiled again)."""
        args = (self.rules.ir, dict(self.rules.options), self.players,
                dict(rounds=self.rounds, log_events=self.log_events, turn_cap=self.turn_cap,
                     perform_chance=self.perform_chance, stop_after_round=self.stop_after_round,
                     track_kinds=self.track_kinds))
        if getattr(self, "_pickled_as", None) is None:      # the IR as JSON once, not at every state pickled
            self._pickled_as = _pickle_key(*args)
            _remember(self._pickled_as, self)
        return (_game_from_ir, args)

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
            s._seed = seed
            s.setup_cards(None)
            s.draw_pile = list(range(s.ncards))
            s.push(self.flow.begin_round)
            s.run()
        return s


_UNPICKLED: dict = {}      # (the IR, options, players, settings) as JSON -> the Game made from them
MAX_UNPICKLED = 32


def _pickle_key(ir, options, players, settings) -> str:
    import json
    return json.dumps([ir, options, players, {k: sorted(v) if isinstance(v, (set, frozenset)) else v
                                              for k, v in settings.items()}], sort_keys=True, default=repr)


def _remember(key, game):
    if key not in _UNPICKLED:
        if len(_UNPICKLED) >= MAX_UNPICKLED:
            _UNPICKLED.pop(next(iter(_UNPICKLED)))
        _UNPICKLED[key] = game


def _game_from_ir(ir, options, players, settings):
    key = _pickle_key(ir, options, players, settings)
    game = _UNPICKLED.get(key)
    if game is not None:                   # a state or game pickled again in this process: compiled once
        return game
    from unorules.language.checker import check
    from .compiler import compile_rulebook
    from unorules.language.loader import Rulebook
    from unorules.language.spans import Spans
    rb = Rulebook(ir["name"], ir, {}, Spans())
    problems = check(rb)
    if problems:
        raise RuleRuntimeError(f"the pickled rulebook no longer checks: {problems[0].message}")
    game = Game(compile_rulebook(rb, options), players, **settings)
    game._pickled_as = key
    _remember(key, game)
    return game
