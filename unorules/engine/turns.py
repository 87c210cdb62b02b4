"""The turn flow: turns, plays, going out, the out-of-turn windows (jump in, catch, cards playable
at any time), further plays, drawing. Frames are functions `fn(state, *args)` on the agenda; rounds
(the deal, the first card, the round's end, the match) are in rounds.py."""
from __future__ import annotations

from .primitives import _draw_until
from .rounds import end_round
from .state import State
from .types import DRAW, KEEP, MAX_GAME_TURNS, PASS, PAUSED, Action, Decision


def advance(s: State):
    if s.pending_winners:                   # `win round`: the round ends once the play that said it is over
        end_round(s, s.pending_winners[0])
        return
    if s.pause_before_turn:                 # a playout goes on from here in generated code (types.PAUSED)
        s.decision = PAUSED
        return
    if s.next_override is not None:
        nxt, s.next_override = s.next_override, None
        if s.out[nxt]:                      # they went out meanwhile: the turn goes on from their seat
            nxt = s.step(nxt)
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
            if s.game.turn_resets:           # a skipped turn is that player's turn: begun and over at once
                s.turn_serial += 1
                expire_at_turn(s, nxt)
                s.last_turn[nxt] = s.turn_serial
            nxt = s.step(nxt)
            guard += 1
    begin_turn(s, nxt)


def begin_turn(s: State, p):
    s.current = p
    s.turns += 1
    s.game_turns += 1
    s.turn_first_decision = s.counts["decisions"]
    s.turn_draws = 0
    s.turn_drawn = None
    game = s.game
    if s.turns > game.turn_cap or s.game_turns > MAX_GAME_TURNS:
        s.turns -= 1                     # the turns actually played
        end_round(s, None, "stalled")
        return
    if s.exposed:
        s.exposed = []
    if game.turn_resets:
        expire_memory(s, p)
    if s.log is not None:
        s.emit("turn", player=p)
    if game.turn_start_hooks or game.any_time_kinds:
        if game.any_time_kinds:
            s.push(any_time_window, p, 0)    # the out-of-turn window, then the turn's decision
        else:
            s.push(turn_decision, p)
        s.fire("turn_start", {"me": p, "@who": p})
    else:
        turn_decision(s, p)


def expire_memory(s: State, p):
    """A new turn (p's) begins: values kept for the turn are cleared, and so is a value kept until
    after its player's next turn once that turn (begun after the value was set) is over; a value
    per player is its player's, a value for the game its setter's."""
    s.turn_serial += 1
    for c in s.game.resets["turn"]:
        s.reset_counter(c)
    for c in s.game.resets["next_turn"]:
        name = c["name"]
        values, set_at = s.memory[name], s.set_at[name]
        empty = False if c["kind"] == "flag" else 0
        if c["per"] == "player":
            for q in range(s.n):
                if values[q] != empty and s.last_turn[q] > set_at[q]:
                    values[q] = empty
        elif values != empty and set_at[1] >= 0 and s.last_turn[set_at[1]] > set_at[0]:
            s.memory[name] = empty
    expire_at_turn(s, p)
    if s.open_hands:                         # an open hand until its player's next turn is over
        for q, at in list(s.open_hands.items()):
            if at is not None and s.last_turn[q] > at:
                del s.open_hands[q]
    s.last_turn[p] = s.turn_serial


def expire_at_turn(s: State, p):
    """p's turn begins (or is skipped): a value kept until p's next turn (`reset at next turn`),
    p's own or one p set for the game, set before this turn, is cleared."""
    for c in s.game.resets["at_next_turn"]:
        name = c["name"]
        empty = False if c["kind"] == "flag" else 0
        set_at = s.set_at[name]
        if c["per"] == "player":
            if s.memory[name][p] != empty and set_at[p] < s.turn_serial:
                s.memory[name][p] = empty
        elif s.memory[name] != empty and set_at[1] == p and set_at[0] < s.turn_serial:
            s.memory[name] = empty


def turn_decision(s: State, p):
    if s.gone[p]:                            # eliminated as the turn began (`on turn_start`): no turn
        advance(s)
        return
    opts = s.play_options(p)
    if not (opts and s.game.draw_only_when_stuck):
        opts.append(DRAW)
    if s.rules.turn["may_pass"]:
        opts.append(PASS)
    s.decision = Decision("turn", p, opts, _turn_answer, p)


def _turn_answer(s: State, p, a: Action):
    s.counts["turn_decisions"] += 1
    if a.kind == "play":
        if a.pile is not None:
            s.use_pile(a.pile)
        play_card(s, p, a.value, a.call, a.color)
    elif a.kind == "play_many":
        play_many(s, p, a.value, a.call)
    elif a.kind == "pass":                       # `may pass`: the turn ends without a play or a draw
        s.emit("pass", player=p)
        advance(s)
    else:
        turn_draw(s, p)


def _emit_play(s: State, p, card, call, **extra):
    if s.log is not None:
        s.emit("play", player=p, card=s.card_name(card), **extra, **({"uno": True} if call else {}),
               **({"pile": s.pile_name(s.pile)} if s.several_piles else {}))


def run_play_rules(s: State, card, env):
    """Push a played card's rules: its own `on play` first, then the `play` triggers (the agenda is
    a stack, so whatever the caller pushed before runs after them)."""
    s.fire("play", env, card)
    effects = s.rules.kinds[s.ckind[card]].effects.get("play")
    if effects:
        s.push_actions(effects, env)


def someone_out_of_cards(s: State) -> bool:
    return not all(s.hands[q] for q in range(s.n) if not s.out[q])


def play_many(s: State, p, cards, call):
    """Several cards of one kind at once: each is placed and each one's rules run, in order."""
    envs = []
    for i, card in enumerate(cards):
        legal = s.place(p, card, call and i == len(cards) - 1)
        _emit_play(s, p, card, call and i == len(cards) - 1)
        envs.append((card, {"me": p, "@who": p, "card": card, "@legal_play": legal}))
    s.push(end_play, p)
    for card, env in reversed(envs):
        run_play_rules(s, card, env)


def play_card(s: State, p, card, call, color=None):
    legal = s.place(p, card, call)
    _emit_play(s, p, card, call)
    if s.game.quiet_play[s.ckind[card]]:
        end_play(s, p)                       # nothing to run: straight on (the common number card)
        return
    env = {"me": p, "@who": p, "card": card, "@legal_play": legal}
    if color is not None:
        env["@color"] = color          # the answer to the card's first `choose color`, given with the play
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
    run_play_rules(s, card, env)


def jump_window(s: State, p, card, env, i):
    others = out_of_turn_order(s, p)
    if s.rules.jump_in_by_anyone and not s.out[p]:
        others += (p,)                       # the card's own player, with its twin, after the others
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
        env_q = {"me": q, "@who": q}
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
    calls = s.game.offers_call(len(s.hands[q]) - 1)
    fused = s.rules.fused_color
    for c in sorted(s.hands[q], key=s.face_of):
        f = s.face_of(c)
        if f in seen or not cond(s, {"me": q, "@who": q, "card": c}):
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


def play_options_for_extra(s: State, p, where, env, any_card):
    """The plays `may play` offers: p's playable cards (on any pile they match), or with `any`
    every card of the hand, one per face, on the pile in use; those for which `where` holds."""
    if any_card:
        faces = s.card_faces[s.side]
        cards = list({faces[c]: c for c in reversed(s.hands[p])}.values())
        only = s.rules.play_only_when
        if only is not None:                     # any card, but the table's `play only when` still holds
            cards = [c for c in cards if only(s, {"me": p, "@who": p, "card": c})]
        opts, opts_call = s._match[2], s._match[3]
        table = opts_call if s.game.offers_call(len(s.hands[p]) - 1) else opts
        acts = [a for c in cards for a in table[c]]      # on the pile in use: it matches nothing
        if s.several_piles:
            acts = [a._replace(pile=s.pile) for a in acts]
    else:
        acts = s.play_options(p, list(s.hands[p]))
    if where is not None:
        keep = {}
        for a in acts:
            if a.value not in keep:
                e = dict(env)
                e["card"] = a.value
                keep[a.value] = bool(where(s, e))
        acts = [a for a in acts if keep[a.value]]
    return acts


def play_extra(s: State, p, card, call, color=None):
    """A further card played by `may play`: it goes on the pile and its rules run; whoever is out
    of cards afterwards goes out (the play that offered it then ends as usual)."""
    legal = s.place(p, card, call)
    _emit_play(s, p, card, call, extra=True)
    env = {"me": p, "@who": p, "card": card, "@legal_play": legal}
    if color is not None:
        env["@color"] = color
    s.push(_out_after_extra, p)
    run_play_rules(s, card, env)


def _out_after_extra(s: State, p):
    if someone_out_of_cards(s):
        went_out(s, p)


def out_of_turn_order(s: State, p) -> tuple:
    """Who may act out of turn after p's play (or before p's turn), first to last: the nearest in
    the direction of play (the default), or clockwise whatever the direction."""
    if s.rules.out_of_turn == "clockwise":
        return tuple(q for q in ((p + k) % s.n for k in range(1, s.n)) if not s.out[q])
    return s.others_in_order(p)


def any_time_window(s: State, p, i):
    """Before p's turn, each other player in the out-of-turn order may play a card that is playable
    at any time (its own `playable when` judged, with `turn_player` bound to p); then p's turn."""
    if s.gone[p]:
        advance(s)
        return
    order = out_of_turn_order(s, p)
    kinds = s.game.any_time_kinds
    while i < len(order):
        q = order[i]
        i += 1
        opts, seen = [], set()
        for c in s.hands[q]:
            k = s.ckind[c]
            f = s.face_of(c)
            if k not in kinds or f in seen:
                continue
            seen.add(f)
            rule = s.rules.kinds[k].playable
            if rule is not None and not rule(s, {"me": q, "@who": q, "card": c, "turn_player": p}):
                continue
            colors = s.rules.side_colors[s.side] if s.rules.fused_color[k] else (None,)
            calls = (False, True) if s.game.offers_call(len(s.hands[q]) - 1) else (False,)
            opts += [Action("any_time", c, call, col) for col in colors for call in calls]
        if opts:
            opts.sort(key=lambda a: (s.face_of(a.value), a.color or 0, a.call))
            s.ask("any_time", q, opts + [Action("any_time", None)], _any_time_answer, (p, q, i))
            return
    turn_decision(s, p)


def _any_time_answer(s: State, ctx, a: Action):
    p, q, i = ctx
    if a.value is None:
        any_time_window(s, p, i)
        return
    card = a.value
    legal = s.place(q, card, a.call)
    s.emit("any_time", player=q, card=s.card_name(card), turn_player=p)
    env = {"me": q, "@who": q, "card": card, "turn_player": p, "@legal_play": legal}
    if a.color is not None:
        env["@color"] = a.color
    s.push(_after_any_time, p, q, i)
    run_play_rules(s, card, env)


def _after_any_time(s: State, p, q, i):
    if someone_out_of_cards(s) and went_out(s, q):
        return
    s.current = p
    if s.out[p] or s.skips[p] > 0:           # the player about to play lost the turn: it passes on from them
        s.skips[p] = 0
        s.emit("skip", player=p)
        advance(s)
        return
    any_time_window(s, p, i)


def end_play(s: State, p):
    if s.false_caller is not None:           # a false call's price, after the card's rules
        q, s.false_caller = s.false_caller, None
        s.push(end_play, p)
        s.push_actions(s.game.false_call, {"me": q, "@who": q})
        return
    hands = s.hands
    if not (hands[p] and all(hands)):        # someone may have gone out (seats out of the round hold nothing)
        if went_out(s, p):
            return
    if s.exposed:
        s.push(advance)
        s.push(catch_window, list(s.exposed), 0)
    else:
        advance(s)


def went_out(s: State, p) -> bool:
    """Players left with no cards go out, p first, then in the direction of play. The first ends
    the round, unless the round goes on (`play to the last`, `places N`): then each takes the next
    place and sits out the rest of the round, which ends when one player holds cards or enough
    places are taken. True when the round ended."""
    gone = [q for q in (p,) + s.others_in_order(p) if not s.out[q] and not s.hands[q]]
    if not gone:
        return False
    sc = s.rules.scoring
    if not (sc["to_the_last"] or sc["places"] is not None):
        end_round(s, gone[0])
        return True
    for q in gone:
        s.places.append(q)
        s.out[q] = True
        s.emit("out", player=q, place=len(s.places))
    limit = sc["places"](s, {"me": p, "@who": p}) if sc["places"] is not None else None
    if s.active_count() <= 1 or (limit is not None and len(s.places) >= limit):
        end_round(s, s.places[0])
        return True
    return False


def catch_window(s: State, exposed, i):
    decl = s.game.declaration
    while exposed:
        x = exposed[0]
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
    s.push_actions(s.game.declaration[2], {"me": x, "@who": x})


def turn_draw(s: State, p):
    rules = s.rules
    s.turn_draws += 1
    draw_with = rules.turn.get("draw_with")
    if draw_with:                            # the rulebook's actions replace the draw of one card
        s.push(_after_draw_with, p, list(s.hands[p]))
        s.push_actions(draw_with, {"me": p, "@who": p})
        return
    got = []
    if rules.turn["draw_until_playable"]:
        got = _draw_until(s, p, lambda c: _drawn_playable(s, p, c), "until_playable")
    else:
        got = s.draw_cards(p, 1)
    last = got[-1] if got else None
    s.turn_drawn = last                      # `just_drawn`: this card, from now to the turn's end
    if last is None or "draw" not in rules.triggers:
        after_turn_draw(s, p, last)          # no draw rule to run first
        return
    s.push(after_turn_draw, p, last)
    s.fire("draw", {"me": p, "@who": p, "card": last}, last)


def _drawn_playable(s: State, p, card) -> bool:
    """Drawing until a card may be played: each card is judged as the one just drawn."""
    s.turn_drawn = card
    return s.playable(p, card)


def _after_draw_with(s: State, p, before):
    held = set(before)
    got = [c for c in s.hands[p] if c not in held]
    last = got[-1] if got else None
    s.turn_drawn = last
    if last is None or "draw" not in s.rules.triggers:
        after_turn_draw(s, p, last)
        return
    s.push(after_turn_draw, p, last)
    s.fire("draw", {"me": p, "@who": p, "card": last}, last)


def after_turn_draw(s: State, p, card):
    """After the turn's draw: the drawn card may (or must) be played, by the rulebook's rule; and
    where the turn allows several draws (`draw up to N cards`), the player may draw again."""
    turn = s.rules.turn
    mode = turn["drawn_card"]
    playable = []
    if card is not None and mode != "is_kept" and card in s.hands[p]:
        playable = s.play_options(p, [card])        # empty when the drawn card is not playable
        when = turn.get("drawn_card_when")
        if playable and not (when is None or when(s, {"me": p, "@who": p, "card": card})):
            playable = []
    forced = bool(playable) and mode == "must_play"
    limit = turn.get("draw_up_to")
    again = limit is not None and s.turn_draws < limit and not forced
    if not playable and not again:
        advance(s)
        return
    opts = playable + ([] if forced else [KEEP]) + ([DRAW] if again else [])
    s.ask("drawn", p, opts, _drawn_answer, p)


def _drawn_answer(s: State, p, a: Action):
    if a.kind == "play":
        if a.pile is not None:
            s.use_pile(a.pile)
        play_card(s, p, a.value, a.call, a.color)
    elif a.kind == "draw":
        turn_draw(s, p)
    else:
        s.emit("keep", player=p)
        advance(s)
