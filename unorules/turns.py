"""The turn flow: rounds (shuffle, deal, the first card, scoring, the match), turns, plays, the
jump-in and catch windows, drawing. Frames are functions `fn(state, *args)` on the agenda."""
from __future__ import annotations

from .compiler import NO_COLOR
from .errors import RuleRuntimeError
from .primitives import _draw_until
from .state import DRAW, KEEP, Action, Decision, State

MAX_ROUNDS = 1000            # rounds in one match; a match still undecided after them is `stalled`


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
    s.shown = {}
    for c in s.game.round_resets:
        s.reset_counter(c)
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
    if s.log is not None:               # the deal in full, so a log can be replayed and checked
        s.emit("deal", hand=hand, hands={str(q): [s.card_name(c) for c in s.hands[q]] for q in order})
    s.push(turn_up)                  # the agenda is a stack: the round's start rules run first
    s.fire("round_start", {"me": s.dealer, "_who": s.dealer})


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
        end_round(s, None, "stalled")
        return
    if s.exposed:
        s.exposed = []
    if game.turn_resets:
        expire_memory(s, p)
    if s.log is not None:
        s.emit("turn", player=p)
    if game.turn_start_hooks:
        s.push(turn_decision, p)
        s.fire("turn_start", {"me": p, "_who": p})
    else:
        turn_decision(s, p)


def expire_memory(s: State, p):
    """A new turn (p's) begins: values kept for the turn are cleared, and so is a value kept until
    a player's next turn once that turn (begun after the value was set) is over."""
    s.turn_serial += 1
    for c in s.game.resets["turn"]:
        s.reset_counter(c)
    for c in s.game.resets["next_turn"]:
        values, set_at = s.memory[c["name"]], s.set_at[c["name"]]
        empty = False if c["kind"] == "flag" else 0
        for q in range(s.n):
            if values[q] != empty and s.last_turn[q] > set_at[q]:
                values[q] = empty
    s.last_turn[p] = s.turn_serial


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
                end_round(s, q)
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
    winner = match_over(s)
    if winner is not None or s.active_count() <= 1:
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
    gained = {}
    if sc["method"] == "each_scores_own_hand":
        for p in range(s.n):
            if not s.out[p]:
                gained[p] = s.hand_points(p)
    else:
        gained[winner] = sum(s.hand_points(p) for p in range(s.n) if p != winner and not s.out[p])
    for p, g in gained.items():
        s.scores[p] += g
    s.emit("round_end", winner=winner, reason=reason)
    for p, g in gained.items():
        s.emit("score", player=p, points=g, total=s.scores[p])
    s.push(_after_round)             # after the round's end rules, run to completion
    s.fire("round_end", {"me": winner, "_who": winner})

def match_over(s: State):
    """The match winner if the match is over, else None."""
    sc = s.rules.scoring
    rounds_mode = s.game.rounds
    env = {"me": 0, "_who": 0}
    lowest = sc["method"] == "each_scores_own_hand"
    alive = [p for p in range(s.n) if not s.out[p]]

    def best():
        return min(alive, key=lambda p: (s.scores[p], p)) if lowest else max(alive, key=lambda p: (s.scores[p], -p))

    if rounds_mode == "single" or (rounds_mode == "rulebook" and sc["single_round"]) or (
            sc["target"] is None and sc["rounds"] is None and sc["eliminate_above"] is None):
        return s.round_winner
    if sc["eliminate_above"] is not None:
        limit = sc["eliminate_above"](s, env)
        for p in alive:
            if s.scores[p] > limit:
                s.out[p] = True
                s.emit("eliminated", player=p)
        alive = [p for p in range(s.n) if not s.out[p]]
        if len(alive) <= 1:
            return alive[0] if alive else s.round_winner
    if sc["target"] is not None and any(s.scores[p] >= sc["target"](s, env) for p in alive):
        return best()
    if sc["rounds"] is not None and s.round >= sc["rounds"](s, env):
        return best()
    return None
