"""Rounds: the shuffle and the deal, the first card (on each discard pile), the round's end with
its winners, places and scoring, who deals and leads next, and the match. Frames are functions
`fn(state, *args)` on the agenda; the turns between are in turns.py."""
from __future__ import annotations

from unorules.errors import RuleRuntimeError
from .state import State
from .types import NO_COLOR, Action

MAX_ROUNDS = 1000            # rounds in one match; a match still undecided after them is `stalled`


def begin_round(s: State, shuffle: bool = True):
    s.round += 1
    s.turns = 0
    s.turn_first_decision = s.counts["decisions"]
    if shuffle:
        cards = s.draw_pile + [c for pile in s.piles for c in pile] + s.aside + [c for f in s.fronts for c in f]
        s.aside = []
        s.fronts = [[] for _ in range(s.n)]
        for h in s.hands:
            cards += h
            h.clear()
        s.empty_piles()
        if s.side != 0:
            s.set_side(0)
        cards.sort()
        s.shuffle(cards)
        s.draw_pile = cards
    s.direction = 1
    s.color = NO_COLOR
    s.skips = [0] * s.n
    s.next_override = None          # a `play again` of the last round's last play does not carry over
    s.exposed = []
    s.streak = 0
    s.attack = None
    s.shown = {}
    s.open_hands = {}
    for c in s.game.round_resets:
        s.reset_counter(c)
    s.out = list(s.eliminated)
    s.gone = list(s.eliminated)             # `eliminate from round` lasts to the round's end
    s.knocked_out = 0
    s.places, s.round_winners, s.pending_winners = [], [], []
    s.leader = None
    if s.round > 1:
        s.dealer = s.next_dealer if s.next_dealer is not None and not s.out[s.next_dealer] else s.step(s.dealer, 1)
        if s.next_leader is not None and not s.out[s.next_leader] and s.rules.scoring["next_leader"] is not None:
            s.leader = s.next_leader
    s.emit("round_start", dealer=s.dealer, **({"leader": s.leader} if s.leader is not None else {}))
    s.push(deal)
    if s.rules.cut is not None:
        if "cut" in s.rules.triggers:          # `on cut`: before the cut (bets), then the cut
            s.push(ask_cut)
            s.fire("cut", {"me": s.dealer, "@who": s.dealer})
        else:
            ask_cut(s)


def ask_cut(s: State):
    chance, actions = s.rules.cut
    env = {"me": s.dealer, "@who": s.dealer}
    p = min(1.0, max(0.0, float(chance(s, env))))
    s.ask("chance", None, [Action("chance", "exact"), Action("chance", "missed")], _cut_answer,
          (env, actions), [p, 1.0 - p])


def _cut_answer(s, ctx, a):
    env, actions = ctx
    s.emit("cut", dealer=s.dealer, exact=a.value == "exact")
    if a.value == "exact":
        s.push_actions(actions, env)


def deal(s: State):
    hand = int(s.rules.hand_size(s, {"me": s.dealer, "@who": s.dealer}))
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
    if s.log is not None:               # the deal in full, so a log can be replayed and checked
        s.emit("deal", hand=hand, hands={str(q): [s.card_name(c) for c in s.hands[q]] for q in order})
    s.push(turn_up)                  # the agenda is a stack: the round's start rules run first
    s.fire("round_start", {"me": s.dealer, "@who": s.dealer})


def opener(s: State):
    """Who stands for the dealer in the first card's rules: the dealer, or where the rulebook names
    the round's leader, the player before the leader in the direction of play (so that the leader
    plays first, whichever way a round-start rule has turned the play)."""
    return s.dealer if s.leader is None else s.previous_of(s.leader)


def turn_up(s: State, i: int = 0):
    """Turn up the top of the draw pile as the first card of pile i (of every pile, in order)."""
    if s.several_piles:
        s.use_pile(i)
    if not s.draw_pile and not s.reshuffle():
        raise RuleRuntimeError("there is no card to turn up", s.rules.deck_where)
    card = s.draw_pile.pop()
    s.discard.append(card)
    s.color = s.ccolor[card]
    s.first_card = True
    s.streak = 1
    first = s.current = opener(s)
    s.redraw = False
    s.emit("turn_up", card=s.card_name(card), **({"pile": s.pile_name(i)} if s.several_piles else {}))
    env = {"me": first, "@who": first, "card": card}
    s.push(after_turn_up, i)
    effects = s.rules.kinds[s.ckind[card]].effects.get("turn_up")
    if effects:
        s.push_actions(effects, env)


def after_turn_up(s: State, i: int = 0):
    if s.redraw:
        s.push(turn_up, i)
        return
    if i + 1 < len(s.piles):
        s.push(turn_up, i + 1)
        return
    if s.several_piles:
        s.use_pile(0)
    s.game.flow.advance(s)


def _after_round(s: State):
    winner = match_over(s)
    if winner is not None or s.n - sum(s.eliminated) <= 1:
        s.finish(winner if winner is not None else s.round_winner, "win")
        return
    if s.game.stop_after_round:            # scenarios stop when the round ends
        s.terminal = True
        s.outcome = "round_over"
        s.decision = None
        s.agenda.clear()
        return
    if s.round >= MAX_ROUNDS:                # a match no one can win (a target no one reaches)
        s.emit("round_end", winner=None, reason="round cap")
        s.finish(None, "stalled")
        return
    s.push(begin_round)


# ---- rounds and scoring --------------------------------------------------------------------------

def end_round(s: State, winner, reason="win"):
    s.turns_per_round.append(s.turns)
    s.drawn_per_round.append(s.counts["drawn"] - sum(s.drawn_per_round))
    s.round_winner = winner
    s.agenda.clear()
    s.attack = None
    if reason == "stalled":
        s.emit("round_end", winner=None, reason="stalled")
        s.finish(None, "stalled")
        return
    sc = s.rules.scoring
    named, s.pending_winners = s.pending_winners, []
    teams = {s.team_of[w] for w in (named or [winner])}
    s.round_winners = [q for q in range(s.n) if s.team_of[q] in teams and not s.eliminated[q]]
    for q in s.round_winners:
        s.rounds_won[q] += 1
    _rank(s, winner)
    gained = {}
    if sc["method"] == "each_scores_own_hand":
        for p in range(s.n):
            if not s.eliminated[p]:
                gained[p] = s.hand_points(p)
    elif sc["method"] == "winner_scores":     # `winner scores EXPR`, judged with `me` and `winner` the winner
        gained[winner] = sc["winner_scores"](s, {"me": winner, "@who": winner, "winner": winner})
    elif sc["method"] == "no_points":        # rounds are counted, no points: lazy scoring
        pass
    else:                                    # the winner scores what the other teams hold
        gained[winner] = sum(s.hand_points(p) for p in range(s.n)
                             if s.team_of[p] != s.team_of[winner] and not s.eliminated[p])
    for p, g in gained.items():
        s.scores[p] += g
    env = {"me": winner, "@who": winner, "winner": winner}
    s.next_dealer = sc["next_dealer"](s, env) if sc["next_dealer"] is not None else _seated_after(s, s.dealer)
    s.next_leader = sc["next_leader"](s, env) if sc["next_leader"] is not None else _seated_after(s, s.next_dealer)
    extra = {"winners": s.round_winners} if len(s.round_winners) > 1 else {}
    if len(s.places) > 1:
        extra["places"] = list(s.places)
    s.emit("round_end", winner=winner, reason=reason, **extra)
    for p, g in gained.items():
        s.emit("score", player=p, points=g, total=s.scores[p])
    s.push(_after_round)             # after the round's end rules, run to completion
    s.fire("round_end", env)


def _seated_after(s: State, p):
    """The next seat after p, clockwise, of a player still in the match."""
    for k in range(1, s.n + 1):
        q = (p + k) % s.n
        if not s.eliminated[q]:
            return q
    return p


def _rank(s: State, winner):
    """The round's places: who went out, in order (the winner first), then, where the rulebook
    ranks them, the others: by `rank rest by` (fewest first; ties in the direction of play from the
    winner), or the one player left holding cards when the round went on to the last."""
    if winner is not None and winner not in s.places and not s.hands[winner]:
        s.places.insert(0, winner)
    sc = s.rules.scoring
    start = winner if winner is not None else s.current
    rest = [q for q in ((start + k * s.direction) % s.n for k in range(s.n))
            if not s.eliminated[q] and q not in s.places]
    if sc["rank_rest_by"] is not None:
        key = sc["rank_rest_by"]
        values = {q: key(s, {"me": q, "@who": q, "winner": winner}) for q in rest}
        s.places += sorted(rest, key=lambda q: (values[q], rest.index(q)))
    elif len(rest) == 1 and (sc["to_the_last"] or sc["places"] is not None):
        s.places += rest


def match_over(s: State):
    """The match winner if the match is over, else None."""
    sc = s.rules.scoring
    rounds_mode = s.game.rounds
    env = {"me": 0, "@who": 0}
    lowest = sc["method"] == "each_scores_own_hand"
    alive = [p for p in range(s.n) if not s.eliminated[p]]

    def total(p):                      # a team's score is its members' sum (a player alone: their own)
        if sc["method"] == "no_points":    # without points: the rounds won (each member counts the team's)
            return s.rounds_won[p]
        return sum(s.scores[q] for q in range(s.n) if s.team_of[q] == s.team_of[p])

    def best():
        return min(alive, key=lambda p: (total(p), p)) if lowest else max(alive, key=lambda p: (total(p), -p))

    if rounds_mode == "single" or (rounds_mode == "rulebook" and sc["single_round"]) or (
            sc["target"] is None and sc["rounds"] is None and sc["eliminate_above"] is None):
        return s.round_winner
    if sc["eliminate_above"] is not None:
        limit = sc["eliminate_above"](s, env)
        for p in alive:
            if s.scores[p] > limit:
                s.eliminated[p] = s.out[p] = True
                s.emit("eliminated", player=p)
        alive = [p for p in range(s.n) if not s.eliminated[p]]
        if len(alive) <= 1:
            return alive[0] if alive else s.round_winner
    if sc["target"] is not None and any(total(p) >= sc["target"](s, env) for p in alive):
        return best()
    if sc["rounds"] is not None and s.round >= sc["rounds"](s, env):
        return best()
    return None
