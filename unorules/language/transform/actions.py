"""Stage 1b, the actions: a rule's actions in the parse tree -> IR. A mixin of `ToIR`
(rulebook.py), whose `node` and `names_of` helpers it uses; method names are the grammar's
rule aliases (one vocabulary)."""
from __future__ import annotations

from lark import Transformer, v_args


@v_args(meta=True)
class ActionIR(Transformer):
    """ToIR's methods for actions."""

    # -- actions --------------------------------------------------------------------------------
    def actions(self, meta, c):
        lst = list(c)
        self.spans.put(lst, self.span_of(meta))
        return lst

    def block(self, meta, c):
        lst = list(c)
        self.spans.put(lst, self.span_of(meta))
        return lst

    def action(self, meta, c):
        subject, act = c
        if subject is not None:
            act["subject"] = subject
            self.spans.put(act, self.spans.at(subject), "subject")
        if self.span_of(meta):
            self.spans.put(act, self.span_of(meta))
        return act

    def subject(self, meta, c):
        return c[0]

    def subject_name(self, meta, c):
        return self.node(meta, kind="name", name=c[0])

    def subject_attr(self, meta, c):
        return self.node(meta, kind="attr", of=c[0], name=c[1])

    def _each(self, kind, meta, c):
        loop = c[0]
        if loop is None:
            return self.node(meta, kind=kind)
        name, where = loop
        d = self.node(meta, kind=kind, as_=name)
        if where is not None:
            d["where"] = where
        return d

    def each_other(self, meta, c):
        return self._each("each_other", meta, c)

    def each_player(self, meta, c):
        return self._each("each_player", meta, c)

    def loop_name(self, meta, c):
        return (c[0], c[1])

    def _act(kind, *fields):
        def method(self, meta, c):
            return self.node(meta, kind=kind, **dict(zip(fields, c)))
        method.__name__ = kind
        return method

    draw = _act("draw", "count")
    draw_until_color = _act("draw_until_color", "color")
    draw_until_playable = _act("draw_until_playable")
    lose_turn = _act("lose_turn")
    play_again = _act("play_again")
    reverse = _act("reverse")
    choose_color = _act("choose_color")
    set_color = _act("set_color", "color")
    cycle_color = _act("cycle_color")
    swap_hands = _act("swap_hands", "with")
    shuffle_hands = _act("shuffle_hands")
    clear_pile = _act("clear_pile")
    set_aside_pile = _act("set_aside_pile")
    take_pile = _act("take_pile")
    win_round = _act("win_round")

    def flip(self, meta, c):
        return self.node(meta, kind="flip", pile=c[0])

    def do_rule(self, meta, c):
        return self.node(meta, kind="do", rule=c[0])

    def may_play(self, meta, c):
        any_card, where = c
        return self.node(meta, kind="may_play", any=True if any_card else None, where=where)

    def any_card(self, meta, c):
        return True
    look_at = _act("look_at", "hand")

    def give(self, meta, c):
        count, where, to, at_once = c
        return self.node(meta, kind="give", count=count, where=where, to=to, at_once=True if at_once else None)

    def at_once(self, meta, c):
        return True

    def take(self, meta, c):
        count, where, from_ = c
        d = self.node(meta, kind="take", count=count, where=where)
        d["from"] = from_
        return d

    def pass_hands(self, meta, c):
        return self.node(meta, kind="pass_hands", direction=c[0])

    def clockwise(self, meta, c):
        return "clockwise"

    def counterclockwise(self, meta, c):
        return "counterclockwise"

    def choose_option(self, meta, c):
        *options, name = c
        d = self.node(meta, kind="choose_option", as_=name)
        return self.names_of(d, "options", options)

    def choose_number(self, meta, c):
        lo, hi, name = c
        d = self.node(meta, kind="choose_number", as_=name)
        if lo is not None:
            d["low"], d["high"] = lo, hi
        return d

    def choose_kind(self, meta, c):
        where, name = c
        return self.node(meta, kind="choose_kind", where=where, as_=name)

    def set_counter(self, meta, c):
        return self.node(meta, kind="set_counter", counter=c[0], value=c[1])

    def add_counter(self, meta, c):
        return self.node(meta, kind="add_counter", amount=c[0], counter=c[1])

    def clear_counter(self, meta, c):
        return self.node(meta, kind="clear_counter", counter=c[0])
    give_hand = _act("give_hand", "to")
    exchange = _act("exchange", "with")
    discard_all = _act("discard_all", "what")
    score = _act("score", "amount")
    eliminate = _act("eliminate")

    def eliminate_from_round(self, meta, c):
        return self.node(meta, kind="eliminate", **{"from": "round"})
    swap_seats = _act("swap_seats", "with")
    reveal = _act("reveal")
    redraw = _act("redraw")
    add_penalty = _act("add_penalty", "amount")
    pass_attack = _act("pass_attack", "to")
    cancel_attack = _act("cancel_attack")
    double_penalty = _act("double_penalty")
    put_in_front = _act("put_in_front", "card", "to")

    def show_hand_turn(self, meta, c):
        return self.node(meta, kind="show_hand", until="next_turn")

    def show_hand_round(self, meta, c):
        return self.node(meta, kind="show_hand", until="round")
    discard_from_front = _act("discard_from_front", "what", "from")
    move_to_hand = _act("move_to_hand", "what", "from")
    resolve_attack = _act("resolve_attack")
    take_back = _act("take_back")

    def choose_player(self, meta, c):
        return self.node(meta, kind="choose_player", other=False, where=c[0], as_=c[1])

    def choose_other_player(self, meta, c):
        return self.node(meta, kind="choose_player", other=True, where=c[0], as_=c[1])

    def attack(self, meta, c):
        target, penalty, actions = c
        return self.node(meta, kind="attack", target=target, penalty=penalty, actions=actions)

    def chance(self, meta, c):
        name, *outcomes = c
        return self.node(meta, kind="chance", name=name, outcomes=outcomes)

    def outcome(self, meta, c):
        name, weight, actions = c
        return self.node(meta, name=name, weight=weight, actions=actions)

    def perform(self, meta, c):
        name, chance, actions, otherwise = c
        return self.node(meta, kind="perform", name=name, chance=chance, actions=actions,
                         otherwise=otherwise)

    def let(self, meta, c):
        return self.node(meta, kind="let", as_=c[0], value=c[1])

    def set_score(self, meta, c):
        return self.node(meta, kind="set_score", target=c[0], value=c[1])

    def repeat(self, meta, c):
        until, most, actions = c
        return self.node(meta, kind="repeat", until=until, most=None if most is None else int(most), actions=actions)

    def group(self, meta, c):
        return self.node(meta, kind="group", actions=c[0])

    def if_(self, meta, c):          # `if` is a Python keyword; the IR kind is "if"
        c = list(c)
        otherwise = c.pop() if len(c) % 2 == 1 else None
        branches = [self.node(meta, when=c[i], then=c[i + 1]) for i in range(0, len(c), 2)]
        return self.node(meta, kind="if", branches=branches, otherwise=otherwise)
