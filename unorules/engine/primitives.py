"""The primitives of rule actions: `act_<kind>(state, env, who, ex, kw)`, one per IR action kind
(the compiler binds each compiled action to its primitive with `bind`)."""
from __future__ import annotations

from unorules.errors import MAX_VALUE, RULE_FAILURES, RuleRuntimeError, bounded
from .attacks import attack_window
from .expressions import RELATIVE_TO
from .types import MAX_DRAW, NO_COLOR, Action, Attack


def bind(impl, who, where, ex, per_subject=False, loop_name=None, loop=False, **kw):
    """A compiled action: evaluate its subject(s), then run the primitive for each, naming the rule
    (file:line:col) in any runtime error. With `per_subject` each subject gets an env of its own in
    which it is the default performer (`@who`) and, in a named loop, bound to the loop's name. In a
    `loop` (`each other`, `each player`) `next` and `previous` are each subject's own."""
    together = kw.get("at_once", False)        # the subjects choose first, then everything moves at once

    def run(s, env):
        try:
            players = who(s, env)
            if True in s.gone:                         # an eliminated player does nothing more
                players = [p for p in players if p is None or not s.gone[p]]
                if not players:
                    return
            if not (per_subject or together or loop):          # the common case: one env for all
                if len(players) == 1:
                    impl(s, env, players[0], ex, kw)
                else:
                    for p in reversed(players):
                        s.agenda.append((_run_for, impl, env, p, ex, kw, where))
                return
            envs = []                                  # an env of its own for each subject
            for p in players:
                e = dict(env)
                if per_subject:
                    e["@who"] = p
                    e.pop("@color", None)
                if loop_name is not None:
                    e[loop_name] = p
                if loop:
                    e[RELATIVE_TO] = p
                envs.append(e)
            if together:
                batch = []
                for e in envs:
                    e["@batch"] = batch
                s.agenda.append((commit_batch, batch))          # runs once every subject has chosen
            if len(players) == 1:
                impl(s, envs[0], players[0], ex, kw)
            else:
                for p, e in zip(reversed(players), reversed(envs)):
                    s.agenda.append((_run_for, impl, e, p, ex, kw, where))
        except RuleRuntimeError as e:
            raise RuleRuntimeError(e.args[0].split(": ", 1)[-1] if e.where else e.args[0], e.where or where) from None
        except RULE_FAILURES as e:
            raise RuleRuntimeError(f"the rule failed: {e}", where) from None
    run.where = where
    return run


def _run_for(s, impl, env, p, ex, kw, where):
    try:
        impl(s, env, p, ex, kw)
    except RuleRuntimeError as e:          # named at the rule, as bind's run does
        raise RuleRuntimeError(e.args[0].split(": ", 1)[-1] if e.where else e.args[0], e.where or where) from None
    except RULE_FAILURES as e:
        raise RuleRuntimeError(f"the rule failed: {e}", where) from None


def act_draw(s, env, p, ex, kw):
    s.draw_cards(p, ex["count"](s, env))


def _draw_until(s, p, stop, why):
    got = []
    for _ in range(MAX_DRAW):
        one = s.draw_cards(p, 1, why, emit=False)
        got += one
        if not one or stop(one[0]):
            break
    if got and s.log is not None:
        s.emit("draw", player=p, count=len(got), cards=[s.card_name(c) for c in got], why=why)
    return got


def act_draw_until_color(s, env, p, ex, kw):
    want = ex["color"](s, env)
    _draw_until(s, p, lambda c: s.ccolor[c] == want, "until_color")


def act_draw_until_playable(s, env, p, ex, kw):
    _draw_until(s, p, lambda c: s.playable(p, c), "until_playable")


def act_lose_turn(s, env, p, ex, kw):
    if p is not None:
        s.skips[p] = 1          # the player's next turn is lost: once, however often it is said


def act_play_again(s, env, p, ex, kw):
    s.next_override = p
    s.emit("play_again", player=p)


def act_reverse(s, env, p, ex, kw):
    s.direction = -s.direction
    s.emit("reverse", direction="clockwise" if s.direction == 1 else "counterclockwise")


def act_choose_color(s, env, p, ex, kw):
    given = env.pop("@color", None)
    if given is not None and p == env["me"]:
        s.set_color(given)              # answered with the play
        return
    opts = [Action("color", c) for c in s.rules.side_colors[s.side]]
    s.ask("color", p, opts, _color_answer, p)


def _color_answer(s, p, a):
    s.set_color(a.value)


def act_set_color(s, env, p, ex, kw):
    s.set_color(ex["color"](s, env))


def act_cycle_color(s, env, p, ex, kw):
    cols = s.rules.side_colors[s.side]
    i = cols.index(s.color) if s.color in cols else -s.direction
    s.set_color(cols[(i + s.direction) % len(cols)])


def act_choose_player(s, env, p, ex, kw):
    cands = []
    where = ex.get("where")
    for q in range(s.n):
        if s.out[q] or (kw["other"] and q == p):
            continue
        if where is not None:
            env["candidate"] = q
            ok = where(s, env)
            del env["candidate"]
            if not ok:
                continue
        cands.append(q)
    name = kw["name"]
    if not cands:
        env[name] = None
        s.emit("no_choice", player=p)
        return
    if len(cands) == 1:
        env[name] = cands[0]
        return
    s.ask("player", p, [Action("player", q) for q in cands], _player_answer, (env, name))


def _player_answer(s, ctx, a):
    env, name = ctx
    env[name] = a.value
    s.emit("choose", player=a.value)


def act_swap_hands(s, env, p, ex, kw):
    q = ex["with"](s, env)
    if q is None or q == p:
        return
    s.hands[p], s.hands[q] = s.hands[q], s.hands[p]
    _track_exposure(s, p, q)
    s.emit("swap_hands", player=p, other=q)


def act_pass_hands(s, env, p, ex, kw):
    direction = kw["direction"] or s.direction          # by default, the direction of play
    alive = [q for q in range(s.n) if not s.out[q]]
    new = list(s.hands)
    for q in alive:
        new[s.step(q, direction)] = s.hands[q]
    s.hands = new
    s.exposed = []
    s.emit("pass_hands", direction="clockwise" if direction == 1 else "counterclockwise")


def act_shuffle_hands(s, env, p, ex, kw):
    cards = []
    for q in range(s.n):
        cards += s.hands[q]
        s.hands[q] = []
    s.shuffle(cards)
    order = s.others_in_order(p) + (p,)
    for i, c in enumerate(cards):
        s.hands[order[i % len(order)]].append(c)
    s.exposed = []
    s.emit("shuffle_hands", player=p)


def act_flip(s, env, p, ex, kw):
    """Every card turns over. Each discard pile is turned over as a whole (its bottom card comes on
    top), or with `flip pile top` keeps its order, its top card now showing its other face."""
    s.set_side((s.side + 1) % len(s.rules.sides))
    for i, pile in enumerate(s.piles):
        if not kw["top_only"]:
            pile.reverse()
        if pile:
            s.pile_colors[i] = s.ccolor[pile[-1]]
    top = s.discard[-1]
    s.color = s.ccolor[top]
    s.emit("flip", side=s.rules.sides[s.side], top=s.card_name(top))


def _store(s, kw, p, value):
    name = kw["name"]
    value = bounded(value, f"`{name}`")
    if kw["per_player"]:
        s.memory[name][p] = value
        s.set_at[name][p] = s.turn_serial
    else:
        s.memory[name] = value
        if kw["by_setter"]:
            s.set_at[name] = [s.turn_serial, -1 if p is None else p]
    if s.log is not None:
        s.emit("counter", name=name, value=value, **({"player": p} if kw["per_player"] else {}))


def _value(s, kw, p):
    return s.memory[kw["name"]][p] if kw["per_player"] else s.memory[kw["name"]]


def act_set_counter(s, env, p, ex, kw):
    _store(s, kw, p, ex["value"](s, env) if "value" in ex else True)


def act_add_counter(s, env, p, ex, kw):
    _store(s, kw, p, _value(s, kw, p) + ex["amount"](s, env))


def act_clear_counter(s, env, p, ex, kw):
    _store(s, kw, p, False if kw["flag"] else 0)


# ---- choices of named options, numbers and kinds --------------------------------------------------

MAX_CHOICES = 1000


def act_choose_option(s, env, p, ex, kw):
    _ask_choice(s, env, p, kw["name"], [Action("option", o) for o in kw["options"]], kw["worth"])


def act_choose_number(s, env, p, ex, kw):
    if "low" in ex:
        lo, hi = int(ex["low"](s, env)), int(ex["high"](s, env))
        if hi < lo:
            raise RuleRuntimeError(f"there is no number from {lo} to {hi} to choose")
        if hi - lo >= MAX_CHOICES:
            raise RuleRuntimeError(f"a choice of {hi - lo + 1} numbers; the limit is {MAX_CHOICES}")
        opts = [Action("number", v) for v in range(lo, hi + 1)]
        sign = -1 if kw["worth"] and kw["worth"][0] < 0 else 1      # worth.py: the lowest, where more costs
        _ask_choice(s, env, p, kw["name"], opts, tuple(sign * v for v in range(lo, hi + 1)))
        return
    # a number kind of the side in play
    opts = [Action("kind", k) for k in s.kinds_in_play() if s.rules.kinds[k].category == "number"]
    _ask_choice(s, env, p, kw["name"], opts)


def act_choose_kind(s, env, p, ex, kw):
    where = ex.get("where")
    opts = []
    for k in s.kinds_in_play():
        if where is not None:
            e = dict(env)
            e["candidate"] = k
            if not where(s, e):
                continue
        opts.append(Action("kind", k))
    _ask_choice(s, env, p, kw["name"], opts)


def _ask_choice(s, env, p, name, opts, worth=None):
    """Ask p to choose among opts; `worth`: what each is worth to p, read from the rules
    (language/worth.py), for the greedy agent."""
    if not opts:
        raise RuleRuntimeError(f"there is nothing to choose as `{name}`")
    if len(opts) == 1:
        _chosen(s, (env, name), opts[0])
        return
    s.ask(opts[0].kind, p, opts, _chosen, (env, name), worth=worth)


def _chosen(s, ctx, a):
    env, name = ctx
    env[name] = a.value
    s.emit("choose", player=env.get("@who"), name=name,
           value=s.rules.kinds[a.value].name if a.kind == "kind" else a.value)


def act_score(s, env, p, ex, kw):
    points = ex["amount"](s, env)          # judged once: the event logs what was added
    s.scores[p] += points
    s.emit("score", player=p, points=points, total=s.scores[p])


def act_set_score(s, env, p, ex, kw):
    """The target's score becomes the value; the event logs the change and the total."""
    q = ex["target"](s, env)
    if q is None:
        return
    value = ex["value"](s, env)
    points, s.scores[q] = value - s.scores[q], value
    s.emit("score", player=q, points=points, total=value)


def act_let(s, env, p, ex, kw):
    """NAME is the value, judged now, for the rest of the block (as a choice's `as NAME` is)."""
    env[kw["name"]] = ex["value"](s, env)


def act_eliminate(s, env, p, ex, kw):
    """p is out of the game (every later round too), or with `from round` of this round only: their
    hand goes under the top card of the discard pile, and from now they hold nothing, take no
    turn and are asked nothing (bind skips every action of theirs). The last player left in the
    round is never eliminated: they win it (the first out wins where players go out for places),
    and it is scored as the rulebook says; rounds._after_round ends the match when one is left."""
    for_round = kw.get("from") == "round"
    if s.gone[p] or (not s.out[p] and s.active_count() <= 1):
        return
    s.gone[p] = s.out[p] = True
    s.knocked_out += 1
    if not for_round:
        s.eliminated[p] = True
    s.discard[-1:-1] = s.hands[p]
    s.hands[p] = []
    if p in s.exposed:
        s.exposed.remove(p)
    s.emit("eliminated", player=p, **({"from": "round"} if for_round else {}))
    if s.active_count() == 1:
        left = next(q for q in range(s.n) if not s.out[q])
        s.game.flow.end_round(s, s.places[0] if s.places else left, "last_standing")


def act_swap_seats(s, env, p, ex, kw):
    q = ex["with"](s, env)
    if q is None or q == p:
        return
    for arr in (s.hands, s.fronts, s.scores, s.seats):
        arr[p], arr[q] = arr[q], arr[p]
    _track_exposure(s, p, q)
    s.emit("swap_seats", player=p, other=q)


def act_reveal(s, env, p, ex, kw):
    if not s.draw_pile and not s.reshuffle():
        env["revealed"] = s.discard[-1]
        return
    card = s.draw_pile.pop()
    s.discard.append(card)
    if s.ccolor[card] != NO_COLOR:
        s.color = s.ccolor[card]
    env["revealed"] = card
    s.emit("reveal", card=s.card_name(card))


def act_redraw(s, env, p, ex, kw):
    card = s.discard.pop()
    s.draw_pile.append(card)
    s.shuffle(s.draw_pile)
    s.redraw = True
    s.emit("redraw", card=s.card_name(card))


def act_attack(s, env, p, ex, kw):
    t = ex["target"](s, env)
    if t is None:                  # an attack on nobody (`most` over no player, no one to choose) does nothing
        return
    pen = ex["penalty"](s, env) if "penalty" in ex else 0
    card = env.get("card")
    atk = Attack(env["me"], t, pen, kw["body"], s.ckind[card] if card is not None else None, card,
                 env.get("@legal_play", True), env)
    s.attack = atk
    s.push(attack_window, atk)


def _pending(s):
    if s.attack is None:
        raise RuleRuntimeError("no attack is pending")
    return s.attack


def act_add_penalty(s, env, p, ex, kw):
    _pending(s).penalty += ex["amount"](s, env)


def act_double_penalty(s, env, p, ex, kw):
    _pending(s).penalty *= 2


def act_pass_attack(s, env, p, ex, kw):
    atk = _pending(s)
    to = ex["to"](s, env)
    if to is None:                 # passed to nobody: it stays where it is
        return
    atk.attacker = env["me"]
    atk.target = to
    atk.passed = True
    s.emit("pass_attack", player=env["me"], to=atk.target, penalty=atk.penalty)


def act_cancel_attack(s, env, p, ex, kw):
    """The attack is called off: the event says who it was aimed at, as no `attack` event will."""
    atk = _pending(s)
    atk.state = "cancelled"
    s.emit("cancel_attack", player=env["me"], attacker=atk.attacker, target=atk.target, penalty=atk.penalty)


def act_resolve_attack(s, env, p, ex, kw):
    _pending(s).state = "resolve"


def act_take_back(s, env, p, ex, kw):
    """The attacking card back to its player's hand, unless it is the discard pile's last card
    (a pile always keeps one: its top is what the next play is judged on)."""
    atk = _pending(s)
    if atk.card in s.discard and len(s.discard) > 1:
        s.discard.remove(atk.card)
        s.hands[atk.player].append(atk.card)
        s.emit("take_back", player=atk.player, card=s.card_name(atk.card))


def act_win_round(s, env, p, ex, kw):
    """p wins the round (with their team): it ends once the play or draw that said so is over."""
    if p is not None and p not in s.pending_winners:
        s.pending_winners.append(p)
        s.emit("win_round", player=p)


def act_do(s, env, p, ex, kw):
    """Carry out a named rule, done by p (the `do`'s subject, or the rule's player)."""
    s.push_actions(kw["body"][0], dict(env))


def act_may_play(s, env, p, ex, kw):
    """p may play one more card now (a playable one, or with `any` any card of the hand), where
    `where` holds of it, or pass. The card goes on the pile and its rules run; the play that said
    so ends as usual afterwards."""
    opts = s.game.flow.play_options_for_extra(s, p, ex.get("where"), env, kw["any"])
    if not opts:
        return
    s.ask("play_more", p, opts + [Action("pass", None)], _may_play_answer, (env, p))


def _may_play_answer(s, ctx, a):
    env, p = ctx
    if a.kind == "pass":
        s.emit("pass", player=p)
        return
    if a.pile is not None:
        s.use_pile(a.pile)
    s.game.flow.play_extra(s, p, a.value, a.call, a.color)


# A block (an `if`'s branch, a `{ }`, an outcome, a named rule's body) runs in a scope of its own:
# a name it binds (`choose ... as`, `chosen`, `revealed`) is not seen after it, as the checker says.

def act_group(s, env, p, ex, kw):
    s.push_actions(kw["body"], dict(env))


def act_repeat(s, env, p, ex, kw):
    """The body, then `until` judged: again while it is false, `most` passes at most. Each pass is
    a block of its own (a name the body binds is not seen by the next pass or by `until`)."""
    _repeat_pass(s, env, kw, 1)


def _repeat_pass(s, env, kw, done):
    s.push(_repeat_check, env, kw, done)
    s.push_actions(kw["body"], dict(env))


def _repeat_check(s, env, kw, done):
    if done < kw["most"] and not kw["until"](s, env):
        _repeat_pass(s, env, kw, done + 1)


def act_if(s, env, p, ex, kw):
    for cond, then in kw["branches"]:
        if cond(s, env):
            s.push_actions(then, dict(env))
            return
    if kw["otherwise"]:
        s.push_actions(kw["otherwise"], dict(env))


def act_chance(s, env, p, ex, kw):
    outs = kw["outcomes"]
    weights = [float(w(s, env)) for _, w, _ in outs]
    for (outcome, _, _), w in zip(outs, weights):
        if not 0 <= w <= MAX_VALUE:          # an option used as a weight (`1 - cut_chance`) is checked here
            raise RuleRuntimeError(f"chance `{kw['name']}`: outcome `{outcome}` has a weight of {w!r}, "
                                   "and a weight is a number from 0 up")
    total = sum(weights)
    if total <= 0:
        raise RuleRuntimeError(f"chance `{kw['name']}` has no outcome with a positive weight")
    s.ask("chance", None, [Action("chance", name) for name, _, _ in outs], _chance_answer, (env, outs, kw["name"]),
          [w / total for w in weights])


def _chance_answer(s, ctx, a):
    env, outs, name_ = ctx
    s.emit("chance", name=name_, outcome=a.value)
    for name, _, actions in outs:
        if name == a.value:
            s.push_actions(actions, dict(env))


def act_perform(s, env, p, ex, kw):
    chance = s.game.perform_chance if s.game.perform_chance is not None else float(kw["chance"](s, env))
    chance = min(1.0, max(0.0, chance))
    s.ask("perform", p, [Action("perform", True), Action("perform", False)], _perform_answer, (env, kw, p),
          [chance, 1.0 - chance])


def _perform_answer(s, ctx, a):
    env, kw, p = ctx
    s.emit("perform", player=p, name=kw["name"], success=bool(a.value))
    # inside a perform's blocks the default subject is the performer
    s.push_actions(kw["success"] if a.value else kw["failure"], {**env, "@who": p})


# the actions that move cards between hands and piles (re-exported: the compiler finds every act_ here)
from .hands import (  # noqa: E402,F401
    act_clear_pile, act_set_aside_pile, act_discard_all, act_exchange, act_take_pile, act_give, act_give_hand, act_look_at, act_take, _track_exposure, commit_batch)
from .fronts import act_discard_from_front, act_move_to_hand, act_put_in_front  # noqa: E402,F401
from .hands import act_show_hand  # noqa: E402,F401
