"""The engine's plain types and constants, which every other module of the engine (and the
generated code) may import: it imports nothing of unorules.

A card, a colour, a kind and a seat are ints; NO_COLOR is the colour of a card without one.
"""
from __future__ import annotations

import copy
from typing import Callable, NamedTuple

NO_COLOR = -1
CHANCE = -1                 # current_player() at a chance node
TERMINAL = -2               # current_player() when the game is over
MAX_DRAW = 500              # cards one action may draw
MAX_TRIGGER_DEPTH = 32
MAX_NEW_DECKS = 10           # fresh decks one game may open (`when the draw pile runs out: new deck`)
MAX_GAME_TURNS = 1_000_000  # turns in one game, over all its rounds: a longer game is `stalled`
MAX_TURN_DECISIONS = 10_000  # an agent's decisions in one turn: more (answers that answer each other) is `stalled`
MAX_STEPS = 200_000         # the engine's steps between two decisions: more is a rule that runs away


class Action(NamedTuple):
    kind: str          # play draw keep color player card challenge respond jump_in catch perform chance
    value: object      # card id, color id, seat, bool, outcome name, or None
    call: bool = False  # declare (call UNO) while playing this card
    color: int | None = None   # a play that also answers the card's first color choice
    pile: int | None = None    # the discard pile a play goes on, where the rulebook has several

    def __deepcopy__(self, memo):      # immutable all through (values are numbers, names, tuples of cards)
        return self


DRAW = Action("draw", None)
KEEP = Action("keep", None)
PASS = Action("pass", None)           # a turn ended without a play or a draw (`may pass`), or a `may play` declined


class Decision:
    """What the engine asks next: a player's choice among `options`, or (with `probs`) a chance node.
    `resume(state, env, action)` carries on with the answer; `worth`: what each option is worth to
    the player, where the rules say it (a named option or a number: language/worth.py)."""
    __slots__ = ("kind", "player", "options", "resume", "env", "probs", "worth")

    def __init__(self, kind, player, options, resume, env, probs=None, worth=None):
        self.kind, self.player, self.options, self.resume, self.env, self.probs = kind, player, options, resume, env, probs
        self.worth = worth

    def __deepcopy__(self, memo):
        """The options are immutable Actions and the resume a function: only the env is copied deep."""
        new = Decision(self.kind, self.player, self.options[:], self.resume, copy.deepcopy(self.env, memo),
                       None if self.probs is None else self.probs[:], self.worth)
        memo[id(self)] = new
        return new


# where a State with `pause_before_turn` stops: between two turns, before the next player is found
# (turns.advance). A search's playout hands the game on to generated code there (codegen/playouts.py).
PAUSED = Decision("pause", None, [], None, None)


class Attack:
    __slots__ = ("attacker", "player", "target", "penalty", "body", "kind", "card", "legal", "state", "passed", "env",
                 "hooked", "hooks")

    def __init__(self, attacker, target, penalty, body, kind, card, legal, env):
        self.attacker, self.target, self.penalty, self.body = attacker, target, penalty, body
        self.player = attacker      # who played the attacking card (a reaction's player once one answers): its
        #                             challenge is theirs to pay, and never offered to them; `attacker` is who sends it now
        self.kind, self.card, self.legal, self.env = kind, card, legal, env
        self.state = "pending"      # pending | resolve | cancelled
        self.passed = False
        self.hooked = None          # the target whose `on attacked` hooks were asked last
        self.hooks = 0              # how many targets they were asked for (an attack passed round and round ends)


class Flow(NamedTuple):
    """The steps of the turn and round flow that lower modules call without importing the modules
    that define them (rounds.py, turns.py): a Game carries them (game.py fills them in), and
    `state.game.flow.advance(state)` starts the next turn from wherever the state is."""
    begin_round: Callable      # (state, shuffle=True): a round's start, pushed by a new state
    end_round: Callable        # (state, winner, reason): a round's end (a stalled turn ends it)
    advance: Callable          # (state): the next turn, after the first card is turned up
    play_options_for_extra: Callable   # (state, p, where, env, any_card): the plays `may play` offers
    play_extra: Callable       # (state, p, card, call, color): a play a rule allows
