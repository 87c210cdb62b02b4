"""What a player can tell of the other hands from the public play, for the search agent (issue 15).

The search assumes everyone plays as its playout policy does (the greedy heuristic), and reads
what that reveals:
- a player who draws on their turn rather than play held nothing playable then (greedy plays
  whenever it can; under `draw only when stuck` everyone does), and one who keeps the card they
  just drew could not play that either;
- a player who played a card held no card the policy would surely have played instead
  (`surely_prefers`: for greedy, no playable card that is not a wild, or has more points, or
  attacks when the next player is close).
So each other hand is kept as groups of cards: the cards it got together (the deal, a draw),
each group with the cards it cannot hold (ruled out by what the player did after the group came
into the hand).

The belief follows the game by replaying its public record: who acted, what they played, how
many cards each hand gained. To know which hand changed, and which cards went to the discard pile,
the replay compares the hands before and after each action; what it learns from that is what
every player at a real table sees (a card played face up, a hand handed over, a count of cards
drawn), never a hidden card's face. A hand that loses cards other than onto the discard pile (a
swap, a pass, a new deal) starts again with nothing known.

`deal(state, rng)` is `State.resample_hidden` with these constraints: each group's cards are
drawn at random among the unseen cards it can hold, the most constrained groups first. Where the
constraints cannot all be met (someone did not play as assumed), the group takes any unseen card.
"""
from __future__ import annotations

from unorules.engine.table import MATCH_RULE


class Belief:
    """One player's belief about the other hands of one game (a state made by `game.new_state`)."""

    def __init__(self, me: int, policy=None):
        self.me = me
        self.policy = policy          # the others' assumed play (the playout policy): what it reveals
        self.replay = None            # the game replayed so far, read for its public record only
        self.seen = 0                 # how many of the history's actions it has replayed
        self.groups: list[list[list]] = []    # per player: [count, frozenset of cards it cannot hold]
        self.seed = None
        self.lost = None              # the seed of a game the replay could not follow

    def follow(self, state) -> bool:
        """Catch up with `state`'s history. False when the state has no replayable history (a
        scenario, a resampled copy) or one its replay cannot follow: then nothing is inferred."""
        history = state._history
        if state._seed is None or state._seed == self.lost:
            return False
        if self.replay is None or self.seed != state._seed or len(history) < self.seen \
                or (self.seen and history[self.seen - 1] != self.replay._history[-1]):
            self.seed = state._seed
            self.replay = state.game.new_state(state._seed)
            self.seen = 0
            self.groups = [[[len(h), frozenset()]] for h in self.replay.hands]
        r = self.replay
        drawn = state._chance_drawn
        while self.seen < len(history):
            action = history[self.seen][0]
            d = r.decision
            if r.terminal or action not in d.options:
                return self._lose(state)
            if d.probs is not None and drawn and self.seen in drawn and r.rng.choices(d.options, d.probs)[0] != action:
                return self._lose(state)           # drawn on the game's generator, as the replay draws it
            self.seen += 1
            ruled_out = None
            if d.probs is None and d.player != self.me:
                ruled_out = self._ruled_out(r, d, action)
            before = [set(h) for h in r.hands]
            r.apply_unchecked(action)
            if ruled_out:
                merged = {}                          # groups ruled out alike become one
                for count, out in self.groups[d.player]:
                    out = out | ruled_out
                    merged[out] = merged.get(out, 0) + count
                self.groups[d.player] = [[count, out] for out, count in merged.items()]
            self._account(r, before)
        if ([len(h) for h in r.hands] != [len(h) for h in state.hands] or r.piles != state.piles
                or len(r.draw_pile) != len(state.draw_pile)):
            return self._lose(state)
        return True

    def _lose(self, state) -> bool:
        """The replay is not the game (it should not happen): it infers nothing more of this game."""
        self.replay = None
        self.lost, self.seed = self.seed, None
        return False

    def follows(self, state, me) -> bool:
        """Whether this belief is `me`'s, caught up with `state`'s history."""
        return (me == self.me and state._seed is not None and state._seed == self.seed
                and self.seen == len(state._history))

    def _ruled_out(self, r, d, action):
        """The cards d's player cannot hold, by what they did: nothing playable if they drew on
        their turn or kept the card they drew; nothing the policy would surely have played rather
        than the card they played."""
        policy, p = self.policy, d.player
        plays_when_it_can = getattr(policy, "plays_when_it_can", False)
        if d.kind == "turn" and action.kind == "draw" and (plays_when_it_can or r.game.draw_only_when_stuck):
            return self._playable(r, p)
        if d.kind == "drawn" and action.kind == "keep" and plays_when_it_can:
            return self._playable(r, p)
        prefers = getattr(policy, "surely_prefers", None)
        if prefers and d.kind == "turn" and action.kind == "play" and not r.rules.turn["multi_play"]:
            played = action.value
            return frozenset(c for c in self._playable(r, p) if prefers(r, p, c, played))
        return None

    @staticmethod
    def _playable(r, p) -> frozenset:
        """The cards p could have played now: each card that matches, a card of a kind with its own
        condition left out (its condition may read p's hand)."""
        faces, cmask = r._match[0], r._match[1]
        plain = [c for c in range(r.ncards) if cmask[c] != MATCH_RULE]
        playable_faces = {faces[a.value] for a in r.play_options(p, plain) if a.kind == "play"}
        return frozenset(c for c in plain if faces[c] in playable_faces)

    def _account(self, r, before):
        on_piles = None
        for q, hand in enumerate(r.hands):
            if q == self.me:
                continue
            now = set(hand)
            lost = before[q] - now
            gained = len(now - before[q])
            groups = self.groups[q]
            if lost:
                if on_piles is None:
                    on_piles = {c for pile in r.piles for c in pile}
                if not lost <= on_piles:             # handed over, swapped, dealt again: start again
                    groups[:] = [[len(now) - gained, frozenset()]]
                else:
                    for c in lost:                   # from the most constrained group that can hold it
                        fits = [g for g in groups if g[0] and c not in g[1]] or [g for g in groups if g[0]]
                        max(fits, key=lambda g: len(g[1]))[0] -= 1
            if gained:
                groups.append([gained, frozenset()])
            groups[:] = [g for g in groups if g[0]]
            if sum(g[0] for g in groups) != len(now):   # should not happen; know nothing rather than wrong
                groups[:] = [[len(now), frozenset()]] if now else []

    def deal(self, state, rng):
        """A copy of `state` with the other hands and the draw pile dealt again, each group of a
        hand from the unseen cards it can hold (resample_hidden with the groups)."""
        return state.resample_hidden(self.me, rng, self.groups)
