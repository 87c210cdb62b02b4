"""The primitives that move cards between hands and piles: give, take, look at, exchange,
discard all, give a hand, and a discard pile taken or cleared. `act_<kind>(state, env, who, ex, kw)`,
as in primitives.py (which re-exports them for the compiler)."""
from __future__ import annotations

from .types import Action


def act_show_hand(s, env, p, ex, kw):
    """p plays with an open hand: every player's observation shows it, until p's next turn is
    over (`until next turn ends`: the turn serial when it was set) or the round ends (None)."""
    if p is None:
        return
    s.open_hands[p] = s.turn_serial if kw["until"] == "next_turn" else None
    s.emit("show_hand", player=p, until=kw["until"])


def _track_exposure(s, *players):
    for q in players:
        if q in s.exposed:
            s.exposed.remove(q)


def _card_options(s, cards, where, env, exclude=()):
    """One "card" action per face among `cards` (the last copy held) for which `where` holds
    (`card` bound to it), in face order."""
    out = {}
    for c in cards:
        if c in exclude:
            continue
        if where is not None:
            e = dict(env)
            e["card"] = c
            if not where(s, e):
                continue
        out[s.face_of(c)] = Action("card", c)
    return [a for _, a in sorted(out.items())]


def act_give(s, env, p, ex, kw):
    q = ex["to"](s, env)
    n = int(ex["count"](s, env))
    batch = env.get("@batch") if kw["at_once"] else None
    _give_next(s, (p, q, n, ex.get("where"), env, batch, []))


def _give_next(s, ctx):
    p, q, n, where, env, batch, picked = ctx
    if q is None or n <= 0 or p == q:
        return
    opts = _card_options(s, s.hands[p], where, env, picked)
    if not opts:
        return
    if len(opts) == 1:
        _give_answer(s, ctx, opts[0])
        return
    s.ask("card", p, opts, _give_answer, ctx)


def _give_answer(s, ctx, a):
    p, q, n, where, env, batch, picked = ctx
    if batch is not None:                # at once: every giver chooses first, then the cards move
        picked.append(a.value)
        batch.append((p, q, a.value))
    else:
        _give_card(s, p, q, a.value)
    s.push(_give_next, (p, q, n - 1, where, env, batch, picked))


def _move(s, src, dst, card):
    """One card from src's hand to dst's (neither has called UNO on this hand any more)."""
    s.hands[src].remove(card)
    s.hands[dst].append(card)
    _track_exposure(s, src, dst)


def _give_card(s, p, q, card):
    _move(s, p, q, card)
    s.emit("give", player=p, to=q, card=s.card_name(card))


def commit_batch(s, batch):
    """The moves of a `give ... at once`, made together once every giver has chosen."""
    for p, q, card in batch:
        _give_card(s, p, q, card)


def act_take(s, env, p, ex, kw):
    q = ex["from"](s, env)
    n = int(ex["count"](s, env))
    if q is None or q == p:
        return
    _look(s, p, q)
    _take_next(s, (p, q, n, ex.get("where"), env))


def _take_next(s, ctx):
    p, q, n, where, env = ctx
    if n <= 0:
        return
    opts = _card_options(s, s.hands[q], where, env)
    if not opts:
        return
    s.ask("take", p, opts, _take_answer, ctx)


def _take_answer(s, ctx, a):
    p, q, n, where, env = ctx
    _move(s, q, p, a.value)
    s.emit("take", player=p, **{"from": q}, card=s.card_name(a.value))
    _look(s, p, q)
    s.push(_take_next, (p, q, n - 1, where, env))


def _look(s, p, q):
    """p sees q's hand as it is now (kept in p's observation only)."""
    s.shown.setdefault(p, {})[q] = list(s.hands[q])


def act_look_at(s, env, p, ex, kw):
    q = ex["owner"](s, env)
    if q is None or q == p:
        return
    _look(s, p, q)
    s.emit("look_at", player=p, other=q, cards=[s.card_name(c) for c in s.hands[q]] if s.log is not None else None)


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
            _move(s, p, q, a)
        if b is not None:
            _move(s, q, p, b)
        s.emit("exchange", player=p, other=q, gave=s.card_name(a) if a is not None else None,
               got=s.card_name(b) if b is not None else None)
        return
    who = pair[i]
    if not s.hands[who]:
        picked.append(None)
        s.push(_exchange_pick, pair, picked, i + 1)
        return
    s.ask("card", who, _card_options(s, s.hands[who], None, None), _exchange_answer, (pair, picked, i))


def _exchange_answer(s, ctx, a):
    pair, picked, i = ctx
    picked.append(a.value)
    s.push(_exchange_pick, pair, picked, i + 1)


def act_discard_all(s, env, p, ex, kw):
    v = ex["what"](s, env)
    of = s.ckind if kw["by_kind"] else s.ccolor           # a card kind, or a color
    gone = [x for x in s.hands[p] if of[x] == v]
    if not gone:
        return
    s.hands[p] = [x for x in s.hands[p] if of[x] != v]
    s.discard[-1:-1] = gone
    s.emit("discard", player=p, count=len(gone), cards=[s.card_name(c) for c in gone])


# ---- memory: counters and flags ----------------------------------------------------------------


def act_clear_pile(s, env, p, ex, kw):
    """The pile in use is cleared: its cards but the top one go under the draw pile."""
    under = s.discard[:-1]
    if under:
        del s.discard[:-1]
        s.draw_pile[:0] = under
    s.emit("clear_pile", **({"pile": s.pile_name(s.pile)} if s.several_piles else {}), count=len(under))


def act_take_pile(s, env, p, ex, kw):
    """p takes the cards of the pile in use into hand, all but the top one."""
    under = s.discard[:-1]
    if not under or p is None:
        return
    del s.discard[:-1]
    s.hands[p] += under
    if p in s.exposed:
        s.exposed.remove(p)
    s.emit("take_pile", player=p, count=len(under), **({"pile": s.pile_name(s.pile)} if s.several_piles else {}))


def act_set_aside_pile(s, env, p, ex, kw):
    """The cards of the pile in use, all but the top one, are set aside: out of play until the
    round ends (no reshuffle takes them)."""
    under = s.discard[:-1]
    if under:
        del s.discard[:-1]
        s.aside += under
    s.emit("set_aside", **({"pile": s.pile_name(s.pile)} if s.several_piles else {}), count=len(under))
