"""The place in front of each player: cards put there stay out of play, face up, until a rule moves
them or the round ends (`put card in front of me`, `discard K from P.front`, `move K from P.front to
hand`). `state.fronts[seat]` holds them, oldest first; `P.front` reads them as a hand is read.
`act_<kind>(state, env, who, ex, kw)`, as in primitives.py (which re-exports them for the compiler)."""
from __future__ import annotations


def _take_out(s, card) -> bool:
    """Remove `card` from the zone it is in (a discard pile, a hand, the draw pile, a front); False,
    and it stays, when it is a discard pile's last card (a pile always keeps its top)."""
    for pile in s.piles:
        if card in pile:
            if len(pile) == 1:
                return False
            pile.remove(card)
            return True
    for zone in (*s.hands, s.draw_pile, *s.fronts):
        if card in zone:
            zone.remove(card)
            return True
    return False


def act_put_in_front(s, env, p, ex, kw):
    card = ex["card"](s, env)
    to = ex["to"](s, env)
    if card is None or to is None or card in s.fronts[to] or not _take_out(s, card):
        return
    s.fronts[to].append(card)
    s.emit("front", player=to, card=s.card_name(card))


def _chosen(s, env, ex, kw):
    """The front and the card in it that `what` names: a card itself, or the oldest card of a kind."""
    owner = ex["owner"](s, env)
    if owner is None:
        return None, None
    front = s.fronts[owner]
    what = ex["what"](s, env)
    if kw["by_kind"]:
        card = next((c for c in front if s.ckind[c] == what), None)
    else:
        card = what if what in front else None
    return owner, card


def act_discard_from_front(s, env, p, ex, kw):
    """The card goes onto the discard pile in use, under its top card (what is to be matched stays)."""
    owner, card = _chosen(s, env, ex, kw)
    if card is None:
        return
    s.fronts[owner].remove(card)
    s.discard.insert(max(len(s.discard) - 1, 0), card)
    s.emit("discard_front", player=owner, card=s.card_name(card))


def act_move_to_hand(s, env, p, ex, kw):
    owner, card = _chosen(s, env, ex, kw)
    if card is None:
        return
    s.fronts[owner].remove(card)
    s.hands[owner].append(card)
    s.emit("front_to_hand", player=owner, card=s.card_name(card))
