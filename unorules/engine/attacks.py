"""Attack windows: an attack waits for its target's answer (a reaction that stacks, reflects or
redirects it), then a challenge where the attacking card has one, then resolves."""
from __future__ import annotations

from unorules.errors import RuleRuntimeError
from .state import State
from .types import MAX_TRIGGER_DEPTH, Action, Attack


def attack_window(s: State, atk: Attack):
    if atk.state == "cancelled":
        s.attack = None
        return
    if atk.state == "resolve":
        resolve(s, atk)
        return
    t = atk.target
    if atk.hooked != t and "attacked" in s.rules.triggers:
        hooks_asked(s, atk)
        return
    opts = []
    faces = s.card_faces[s.side]
    seen = set()
    for r in s.rules.reactions:
        if atk.kind not in r.to:
            continue
        for c in s.hands[t]:
            if s.ckind[c] in r.with_ and faces[c] not in seen:
                if r.cond is None or r.cond(s, {"me": t, "@who": t, "card": c, "target": t,
                                                "attacker": atk.attacker, "penalty": atk.penalty}):
                    seen.add(faces[c])
                    opts.append(Action("respond", c, False))
                    if s.game.offers_call(len(s.hands[t]) - 1):
                        opts.append(Action("respond", c, True))
    if opts:
        opts.sort(key=lambda a: (faces[a.value], a.call))
        opts.append(Action("respond", None))
        s.ask("respond", t, opts, _respond_answer, atk)
        return
    challenge_offer(s, atk)


def hooks_asked(s: State, atk: Attack):
    """The `on attacked` hooks of a new target run before it may answer: each may cancel the
    attack, change its penalty or pass it on (to a target whose hooks then run in turn)."""
    t = atk.target
    atk.hooked = t
    atk.hooks += 1
    if atk.hooks > MAX_TRIGGER_DEPTH:
        raise RuleRuntimeError(f"an attack was passed on by `on attacked` rules more than {MAX_TRIGGER_DEPTH} times",
                               s.rules.triggers["attacked"][0].where)
    s.push(attack_window, atk)
    s.fire("attacked", {"me": t, "@who": t, "target": t, "attacker": atk.attacker, "penalty": atk.penalty})


def _respond_answer(s: State, atk: Attack, a: Action):
    if a.value is None:
        challenge_offer(s, atk)
        return
    t, card = atk.target, a.value
    reaction = next(r for r in s.rules.reactions if atk.kind in r.to and s.ckind[card] in r.with_)
    legal = s.place(t, card, a.call)
    s.emit("respond", player=t, card=s.card_name(card), to=atk.attacker)
    old_target = t
    atk.kind, atk.card, atk.legal, atk.player = s.ckind[card], card, legal, t
    env = {"me": t, "@who": t, "card": card, "target": t, "attacker": atk.attacker, "penalty": atk.penalty,
           "@legal_play": legal}
    s.push(after_reaction, atk, old_target)
    s.push_actions(reaction.actions, env)


def after_reaction(s: State, atk: Attack, old_target):
    if atk.state == "cancelled":
        s.attack = None
        return
    if atk.target == old_target and atk.state == "pending":
        resolve(s, atk)
        return
    attack_window(s, atk)


def challenge_offer(s: State, atk: Attack):
    """The attacking card's challenge, offered to the attack's target as it stands (after `on
    attacked` rules and reactions), unless the target played that card: a challenge won is paid by
    the card's player (`attacker` in the challenge's rules), however the attack was passed on."""
    k = s.rules.kinds[atk.kind]
    if k.challenge is None or atk.target == atk.player:
        resolve(s, atk)
        return
    s.ask("challenge", atk.target, [Action("challenge", True), Action("challenge", False)], _challenge_answer, atk)


def _challenge_answer(s: State, atk: Attack, a: Action):
    if not a.value:
        resolve(s, atk)
        return
    s.counts["challenges"] += 1
    if not atk.legal:
        s.counts["challenges_won"] += 1
    s.emit("challenge", player=atk.target, attacker=atk.player, legal=atk.legal,
           hand=[s.card_name(c) for c in s.hands[atk.player]] if s.log is not None else None)
    env = {"me": atk.player, "@who": atk.target, "card": atk.card, "target": atk.target,
           "attacker": atk.player, "penalty": atk.penalty, "legal": atk.legal, "challenger": atk.target}
    s.push(after_challenge, atk)
    s.push_actions(s.rules.kinds[atk.kind].challenge, env)


def after_challenge(s: State, atk: Attack):
    if atk.state == "cancelled":
        s.attack = None
        return
    resolve(s, atk)


def resolve(s: State, atk: Attack):
    s.attack = None
    s.emit("attack", attacker=atk.attacker, target=atk.target, penalty=atk.penalty)
    env = dict(atk.env)
    env.update({"@who": atk.target, "target": atk.target, "attacker": atk.attacker, "penalty": atk.penalty})
    s.push_actions(atk.body, env)
