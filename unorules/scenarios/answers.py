"""A scenario's script entries matched to the engine's decisions: the action an entry answers a
decision with (cards by name, the pile, the colour and the call), what a `defaults` value answers,
and how both are described in a failure's trace. runner.py runs the script with these."""
from __future__ import annotations

from unorules.engine import DRAW, KEEP, Action, State


def _card_matches(s: State, card: int, name) -> bool:
    if not isinstance(name, str):
        return False
    want = " ".join(name.split())
    if "/" in want:
        return " / ".join(p.strip() for p in want.split("/")) == s.full_name(card)
    return s.card_name(card) == want


def _describe(s: State, d) -> str:
    who = "chance" if d.player is None else f"seat {d.player}"
    return f"{who}: {d.kind} [{', '.join(s.action_name(a) for a in s.legal_actions())}]"


def _entry_text(e: dict) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in e.items()) + "}"


def _default_answer(s: State, d, value):
    """The action that a `defaults` value answers decision d with, or None."""
    for a in d.options:
        if d.kind in ("challenge", "perform") and a.value == bool(value):
            return a
        if d.kind in ("respond", "jump_in", "catch", "any_time") and value is False and a.value is None:
            return a
        if d.kind == "play_more" and value is False and a.kind == "pass":
            return a
        if d.kind == "drawn" and value is True and a.kind == "keep":
            return a
    if d.kind == "catch" and value is True:
        return next((a for a in d.options if a.value is not None), None)
    return None


class _Reject(Exception):
    pass


def _answer(s: State, d, key, entry) -> Action:
    """The engine action for a matching script entry, or _Reject with the engine's message."""
    v = entry[key]
    call = bool(entry.get("uno", False))
    if key in ("play", "respond", "jump_in"):
        if v is False and key == "play" and d.kind == "turn" and any(a.kind == "pass" for a in d.options):
            return next(a for a in d.options if a.kind == "pass")          # `may pass`
        if v is False and (key != "play" or d.kind in ("any_time", "play_more")):
            return next(a for a in d.options if a.value is None)
        if isinstance(v, bool):
            raise _Reject("`play: false` declines only a play the rulebook offers (`may play`, a card playable at any "
                          "time, a turn with `may pass`); name a card, or draw")
        if isinstance(v, list):
            if len(v) == 1:
                v = v[0]
            else:
                return _answer_many(s, d, v, call)
        p = d.player
        holding = [c for c in s.hands[p] if _card_matches(s, c, v)]
        if not holding:
            raise _Reject(f"seat {p} holds no `{v}` (hand: {', '.join(s.card_name(c) for c in s.hands[p]) or 'empty'})")
        faces = {s.face_of(c) for c in holding}
        want_color = entry.get("color")
        kind = "any_time" if d.kind == "any_time" else key
        pile = _pile(s, d, entry, faces, kind)
        for a in d.options:
            if a.kind == kind and a.value is not None and s.face_of(a.value) in faces \
                    and a.call == call and a.pile == pile:
                if a.color is None:
                    return a
                if want_color is None:
                    raise _Reject(f"playing `{v}` names a color: add `color:` to the entry")
                if s.rules.color_names[a.color] == want_color:
                    entry["_color_used"] = True
                    return a
        if any(a.value is not None and s.face_of(a.value) in faces for a in d.options):
            raise _Reject(f"`{v}` cannot be played {'with' if call else 'without'} calling here")
        raise _Reject(s.why_unplayable(p, holding[0], key))
    if key == "draw":
        if DRAW in d.options and v is True:
            return DRAW
        if d.kind == "drawn" and v is True:
            raise _Reject("this turn allows no further draw")
        raise _Reject("drawing is not allowed now" if v is True else "`draw` takes `true`")
    if key == "keep":
        if KEEP in d.options and v is True:
            return KEEP
        raise _Reject("the drawn card must be played" if v is True else "`keep` takes `true`")
    if key in ("challenge", "perform"):
        if not isinstance(v, bool):
            raise _Reject(f"`{key}` takes true or false")
        return next(a for a in d.options if a.value == v)
    if key == "catch":
        if v is False:
            return next(a for a in d.options if a.value is None)
        for a in d.options:
            if a.value == v:
                return a
        raise _Reject(f"seat {v} cannot be caught now: " +
                      ("nobody" if not s.exposed else "only seat " + ", ".join(map(str, s.exposed))) +
                      " missed the call")
    if key == "chance":
        for a in d.options:
            if a.value == v:
                return a
        raise _Reject(f"`{v}` is not an outcome of this chance (outcomes: {', '.join(str(a.value) for a in d.options)})")
    if key == "choose":
        return _choose(s, d, v)
    raise _Reject(f"cannot answer a {d.kind} decision with `{key}`")


def _pile(s: State, d, entry, faces, kind):
    """The pile a play names (`pile: NAME`), where the rulebook has several; None otherwise."""
    if not s.several_piles:
        if "pile" in entry:
            raise _Reject("this rulebook has one discard pile: leave `pile:` out")
        return None
    piles = sorted({a.pile for a in d.options if a.kind == kind and a.value is not None and s.face_of(a.value) in faces
                    and a.pile is not None})
    if "pile" not in entry:
        if len(piles) == 1:
            return piles[0]
        if not piles:
            return None
        raise _Reject(f"the card can go on {', '.join(s.pile_name(i) for i in piles)}: add `pile:` to the entry")
    names = s.rules.piles
    if entry["pile"] not in names:
        raise _Reject(f"no pile `{entry['pile']}` (piles: {', '.join(names)})")
    i = names.index(entry["pile"])
    if i not in piles:
        raise _Reject(f"the card does not match the top of `{entry['pile']}` ({s.card_name(s.piles[i][-1]) if s.piles[i] else 'empty'})")
    return i


def _answer_many(s: State, d, names, call) -> Action:
    many = [a for a in d.options if a.kind == "play_many"]
    if not many:
        raise _Reject("this rulebook does not let several cards be played at once")
    for a in many:
        if len(a.value) == len(names) and a.call == call and all(_card_matches(s, c, n) for c, n in zip(a.value, names)):
            return a
    raise _Reject(f"{' + '.join(map(str, names))} cannot be played together now: the cards must be of one kind, "
                  "held, and the first one playable")


def _choose(s: State, d, v) -> Action:
    if d.kind == "color":
        names = s.rules.color_names
        for a in d.options:
            if names[a.value] == v:
                return a
        raise _Reject(f"`{v}` is not a color that may be chosen now (colors: "
                      f"{', '.join(names[a.value] for a in d.options)})")
    if d.kind == "player":
        for a in d.options:
            if a.value == v:
                return a
        raise _Reject(f"seat {v} may not be chosen (may: {', '.join(str(a.value) for a in d.options)})")
    if d.kind in ("card", "take"):
        for a in d.options:
            if _card_matches(s, a.value, v):
                return a
        raise _Reject(f"`{v}` may not be chosen (may: {', '.join(s.card_name(a.value) for a in d.options)})")
    if d.kind in ("option", "number"):
        for a in d.options:
            if a.value == v and type(a.value) is type(v):
                return a
        raise _Reject(f"`{v}` may not be chosen (may: {', '.join(str(a.value) for a in d.options)})")
    if d.kind == "kind":
        for a in d.options:
            if s.rules.kinds[a.value].name == str(v):
                return a
        raise _Reject(f"`{v}` may not be named (may: {', '.join(s.rules.kinds[a.value].name for a in d.options)})")
    raise _Reject(f"nothing to choose in a {d.kind} decision")
