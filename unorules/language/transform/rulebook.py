"""Stage 1b: the parse tree -> IR (plain JSON-compatible data), with a table of source spans.

`ToIR` is a Lark Transformer whose methods are the grammar's rule aliases (one vocabulary).
Spans are kept beside the IR, never inside it: `Spans` maps (id(node), key) to a `Span`, so the
schema stays clean and any node or field can be traced back to its line and column.
"""
from __future__ import annotations

from lark import Token, v_args

from unorules.errors import Diagnostic, RulebookError, Span
from unorules.language.spans import Spans  # noqa: F401 (re-exported)
from .actions import ActionIR
from .expressions import ExprIR

MAX_NUMBER = 10 ** 9      # the largest number a rulebook may write
MAX_RANGE = 1000          # the most faces one range may name (`card 0..999`)


def _span_meta(meta) -> Span | None:
    if getattr(meta, "empty", True):
        return None
    return Span(meta.line, meta.column, meta.end_line, meta.end_column)


def _span_tok(tok: Token) -> Span:
    return Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


def _face(tok) -> str:
    return str(tok)


@v_args(meta=True)
class ToIR(ActionIR, ExprIR):
    """Parse tree -> IR. Method names are the grammar's rule aliases (one vocabulary)."""

    def __init__(self, spans: Spans, file: str):
        super().__init__()
        self.spans = spans
        self.file = file
        self.problems: list[Diagnostic] = []

    def twice(self, key, span):
        self.problems.append(Diagnostic("U0402", f"`{key.replace('_', ' ')}` is given twice", self.file, span,
                                        "given again here", "keep one of them"))

    def __default_token__(self, token):
        if token.type in ("INT", "DECIMAL") and (len(token) > 12 or float(token) > MAX_NUMBER):
            raise RulebookError([Diagnostic("U0303", f"the number `{token[:20]}{'...' if len(token) > 20 else ''}` is too "
                                            f"large; the limit is {MAX_NUMBER:,}", self.file, _span_tok(token),
                                            "too large")])
        return token

    # -- helpers --------------------------------------------------------------------------------
    def node(self, meta, **fields):
        fields = {("as" if k == "as_" else k): v for k, v in fields.items()}
        d = {k: v for k, v in fields.items() if v is not None}
        self.spans.put(d, _span_meta(meta))
        for k, v in fields.items():
            if isinstance(v, Token):
                d[k] = str(v) if v.type != "INT" else int(v)
                self.spans.put(d, _span_tok(v), k)
        return d

    def span_of(self, meta):
        return _span_meta(meta)

    def names_of(self, d, key, toks):
        d[key] = [str(t) for t in toks]
        for i, t in enumerate(toks):
            self.spans.put(d[key], _span_tok(t), i)
        return d

    # -- file -----------------------------------------------------------------------------------
    def start(self, meta, children):
        header, *items = children
        ir = header
        singles = {"extends", "for", "players", "colors", "pair_sides", "setup", "turn", "jump_in", "scoring",
                   "teams", "piles", "out_of_turn"}
        for key, value, span in items:
            if key in singles:
                if key in ir:
                    self.twice(key, span)
                    continue
                ir[key] = value
                self.spans.put(ir, span, key)
            else:
                ir.setdefault(key, []).append(value)
                if key == "include":
                    ir[key] = [n for group in ir[key] for n in (group if isinstance(group, list) else [group])]
        return ir

    def _header(self, kind, meta, children):
        name, title = children
        d = self.node(meta, kind=kind, name=name, title=str(title)[1:-1] if title is not None else None)
        return d

    def rulebook_header(self, meta, c):
        return self._header("rulebook", meta, c)

    def module_header(self, meta, c):
        return self._header("module", meta, c)

    def _item(self, key, value, meta):
        return (key, value, _span_meta(meta))

    def extends(self, meta, c):
        return self._item("extends", str(c[0]), meta)

    def for_base(self, meta, c):
        return self._item("for", str(c[0]), meta)

    def include(self, meta, c):
        lst = [str(t) for t in c]
        for i, t in enumerate(c):
            self.spans.put(lst, _span_tok(t), i)
        return self._item("include", lst, meta)

    def players(self, meta, c):
        lo, hi = c
        if int(lo) > int(hi):
            self.problems.append(Diagnostic("U0503", f"the range `{lo}..{hi}` is empty", self.file,
                                            _span_meta(meta), "runs backwards", f"write `players {hi}..{lo}`"))
        return self._item("players", self.node(meta, min=lo, max=hi), meta)

    def colors(self, meta, c):
        lst = [str(t) for t in c]
        for i, t in enumerate(c):
            self.spans.put(lst, _span_tok(t), i)
        return self._item("colors", lst, meta)

    def side(self, meta, c):
        name, *cols = c
        d = self.node(meta, name=name)
        self.names_of(d, "colors", cols)
        return self._item("sides", d, meta)

    def option(self, meta, c):
        name, value, help_ = c
        d = self.node(meta, name=name, value=value, help=str(help_)[1:-1] if help_ is not None else None)
        return self._item("options", d, meta)

    def faces(self, meta, c):
        out, spans = [], []
        for f in c:
            if isinstance(f, tuple):           # a range
                lo, hi, span = f
                for n in range(lo, hi + 1):
                    out.append(str(n)); spans.append(span)
            else:
                out.append(str(f)); spans.append(_span_tok(f))
        for i, s in enumerate(spans):
            self.spans.put(out, s, i)
        return out

    def face_range(self, meta, c):
        lo, hi = int(c[0]), int(c[1])
        if hi - lo >= MAX_RANGE:
            raise RulebookError([Diagnostic("U0503", f"the range `{lo}..{hi}` names {hi - lo + 1:,} faces; the limit is "
                                            f"{MAX_RANGE:,}", self.file, _span_meta(meta), "too many",
                                            "a deck's number faces are a few at most: `0..9`")])
        if lo > hi:
            self.problems.append(Diagnostic("U0503", f"the range `{lo}..{hi}` is empty", self.file,
                                            _span_meta(meta), "runs backwards", f"write `{hi}..{lo}`"))
        return (lo, hi, _span_meta(meta))

    def card(self, meta, c):
        names, *items = c
        d = self.node(meta)
        d["names"] = names
        for key, value, span in items:
            if key == "effects":
                d.setdefault("effects", []).append(value)
            elif key in d:
                self.twice(key, span)
            else:
                d[key] = value
                self.spans.put(d, span, key)
        return self._item("cards", d, meta)

    def _remove_setting(self, block, meta, c):
        d = self.node(meta, block=block, key="_".join(str(t) for t in c))
        return self._item("remove_settings", d, meta)

    def remove_setup(self, meta, c):
        return self._remove_setting("setup", meta, c)

    def remove_turn(self, meta, c):
        return self._remove_setting("turn", meta, c)

    def remove_scoring(self, meta, c):
        return self._remove_setting("scoring", meta, c)

    def _memory(self, kind, meta, c):
        name, per, hidden, reset = c
        d = self.node(meta, kind=kind, name=name, per="player" if per else "game")
        if hidden:
            d["hidden"] = True
        if reset is not None:
            d["reset"] = reset
        return self._item("counters", d, meta)

    def counter(self, meta, c):
        return self._memory("counter", meta, c)

    def flag(self, meta, c):
        return self._memory("flag", meta, c)

    def per_player(self, meta, c):
        return True

    def hidden(self, meta, c):
        return True

    def reset_turn(self, meta, c):
        return "turn"

    def reset_round(self, meta, c):
        return "round"

    def reset_next_turn(self, meta, c):
        return "next_turn"

    def reset_at_next_turn(self, meta, c):
        return "at_next_turn"

    def play_only_when(self, meta, c):
        return self._item("play_rules", self.node(meta, kind="play_only_when", when=c[0]), meta)

    def play_on_anything_when(self, meta, c):
        return self._item("play_rules", self.node(meta, kind="play_on_anything_when", when=c[0]), meta)

    def remove_card(self, meta, c):
        d = self.node(meta)
        d["names"] = c[0]
        return self._item("remove_cards", d, meta)

    def number_category(self, meta, c):
        return ("category", "number", _span_meta(meta))

    def action_category(self, meta, c):
        return ("category", "action", _span_meta(meta))

    def wild_category(self, meta, c):
        return ("category", "wild", _span_meta(meta))

    def card_side(self, meta, c):
        return ("side", str(c[0]), _span_meta(meta))

    def points(self, meta, c):
        return ("points", c[0], _span_meta(meta))

    def playable_when(self, meta, c):
        return ("playable_when", c[0], _span_meta(meta))

    def legal_when(self, meta, c):
        return ("legal_when", c[0], _span_meta(meta))

    def card_on(self, meta, c):
        event, actions = c
        return ("effects", self.node(meta, event=event, actions=actions), _span_meta(meta))

    def challenge(self, meta, c):
        return ("challenge", c[0], _span_meta(meta))

    # -- deck -----------------------------------------------------------------------------------
    def deck(self, meta, c):
        side, *entries = c
        d = self.node(meta, side=side)
        d["entries"] = entries
        return self._item("deck", d, meta)

    def per_color(self, meta, c):
        return self.node(meta, kind="per_color", copies=list(c))

    def copies(self, meta, c):
        count, face = c
        if isinstance(face, tuple):
            lo, hi, span = face
            d = self.node(meta, kind="copies", count=count)
            d["faces"] = [str(n) for n in range(lo, hi + 1)]
            for i in range(len(d["faces"])):
                self.spans.put(d["faces"], span, i)
        else:
            d = self.node(meta, kind="copies", count=count)
            d["faces"] = [str(face)]
            self.spans.put(d["faces"], _span_tok(face), 0)
        return d

    def teams(self, meta, c):
        size, seating = c
        if int(size) < 2:
            self.problems.append(Diagnostic("U0303", f"a team of {size} is no team", self.file, _span_tok(size),
                                            "too small", "write `teams of 2 partners opposite`"))
        return self._item("teams", self.node(meta, size=size, seating=seating), meta)

    def opposite(self, meta, c):
        return "opposite"

    def adjacent(self, meta, c):
        return "adjacent"

    def piles(self, meta, c):
        lst = [str(t) for t in c]
        for i, t in enumerate(c):
            self.spans.put(lst, _span_tok(t), i)
        return self._item("piles", lst, meta)

    def rule(self, meta, c):
        name, actions = c
        return self._item("rules", self.node(meta, name=name, actions=actions), meta)

    def out_of_turn(self, meta, c):
        return self._item("out_of_turn", c[0], meta)

    def nearest(self, meta, c):
        return "nearest"

    def fixed_clockwise(self, meta, c):
        return "clockwise"

    def matches_as(self, meta, c):
        return ("matches_as", str(c[0]), _span_meta(meta))

    def at_any_time(self, meta, c):
        return ("at_any_time", True, _span_meta(meta))

    def pair_sides(self, meta, c):
        return self._item("pair_sides", "shuffled", meta)

    # -- setup, turn, scoring -------------------------------------------------------------------
    def _settings(self, key, meta, c):
        d = self.node(meta)
        for k, v, span in c:
            if k in d:
                self.twice(k, span)
                continue
            d[k] = v
            self.spans.put(d, span, k)
        return self._item(key, d, meta)

    def setup(self, meta, c):
        return self._settings("setup", meta, c)

    def turn(self, meta, c):
        return self._settings("turn", meta, c)

    def scoring(self, meta, c):
        return self._settings("scoring", meta, c)

    def hand_size(self, meta, c):
        return ("hand", c[0], _span_meta(meta))

    def cut(self, meta, c):
        return ("cut", self.node(meta, chance=c[0], actions=c[1]), _span_meta(meta))

    def _flag(key, value):
        def method(self, meta, c):
            return (key, value, _span_meta(meta))
        return method

    turn_draw_until_playable = _flag("draw_until_playable", True)
    draw_only_when_stuck = _flag("draw_only_when_stuck", True)
    may_pass = _flag("may_pass", True)
    new_deck = _flag("new_deck", True)
    drawn_card_may_play = _flag("drawn_card", "may_play")

    def drawn_card_must_play(self, meta, c):
        if c[0] is None:
            return ("drawn_card", "must_play", _span_meta(meta))
        return ("drawn_card", {"must_play_when": c[0]}, _span_meta(meta))
    drawn_card_is_kept = _flag("drawn_card", "is_kept")
    multi_play = _flag("multi_play", True)
    winner_scores_others = _flag("method", "winner_scores_others")

    def winner_scores(self, meta, c):
        return ("method", {"winner_scores": c[0]}, _span_meta(meta))
    each_scores_own_hand = _flag("method", "each_scores_own_hand")
    no_points = _flag("method", "no_points")
    to_the_last = _flag("to_the_last", True)
    single_round = _flag("single_round", True)

    def turn_cap(self, meta, c):
        return ("turn_cap", int(c[0]), _span_meta(meta))

    def draw_with(self, meta, c):
        return ("draw_with", c[0], _span_meta(meta))

    def draw_up_to(self, meta, c):
        return ("draw_up_to", int(c[0]), _span_meta(meta))

    def places(self, meta, c):
        return ("places", c[0], _span_meta(meta))

    def rank_rest_by(self, meta, c):
        return ("rank_rest_by", c[0], _span_meta(meta))

    def next_dealer(self, meta, c):
        return ("next_dealer", c[0], _span_meta(meta))

    def next_leader(self, meta, c):
        return ("next_leader", c[0], _span_meta(meta))

    def target(self, meta, c):
        return ("target", c[0], _span_meta(meta))

    def eliminate_above(self, meta, c):
        return ("eliminate_above", c[0], _span_meta(meta))

    def rounds(self, meta, c):
        return ("rounds", c[0], _span_meta(meta))

    # -- reactions, triggers, declarations, jump-in ---------------------------------------------
    def names(self, meta, c):
        lst, spans = [], []
        for t in c:
            if isinstance(t, Token):
                lst.append(str(t)); spans.append(_span_tok(t))
            elif isinstance(t, tuple):          # a range of number kinds
                lo, hi, span = t
                lst += [str(n) for n in range(lo, hi + 1)]
                spans += [span] * (hi - lo + 1)
            else:                               # `any number`: every kind of that category
                lst.append(t); spans.append(self.spans.at(t))
        for i, s in enumerate(spans):
            self.spans.put(lst, s, i)
        return lst

    def kind_range(self, meta, c):
        return self.face_range(meta, c)

    def _any(self, category, meta):
        return self.node(meta, any=category)

    def any_number(self, meta, c):
        return self._any("number", meta)

    def any_action(self, meta, c):
        return self._any("action", meta)

    def any_wild(self, meta, c):
        return self._any("wild", meta)

    def reaction(self, meta, c):
        to, with_, name, cond, actions = c
        d = self.node(meta, to=to, with_=with_, name=name)
        d["with"] = d.pop("with_")
        if cond is not None:
            d["if"] = cond
        d["actions"] = actions
        return self._item("reactions", d, meta)

    def kind_pattern(self, meta, c):
        if isinstance(c[0], tuple):               # a range of faces: a trigger is for one kind
            lo, hi, span = c[0]
            self.problems.append(Diagnostic(
                "U0404", f"a trigger is for one card kind, and `{lo}..{hi}` names {hi - lo + 1}", self.file, span,
                "a range", f"write one rule per kind that does a shared named rule: `rule bonus: ...` and "
                f"`on play of {lo}: do bonus`, `on play of {lo + 1}: do bonus`, ..."))
            c = [str(lo)]
        d = self.node(meta, face=str(c[0]))
        self.spans.put(d, _span_tok(c[0]) if isinstance(c[0], Token) else None, "face")
        return d

    def color_kind_pattern(self, meta, c):
        if isinstance(c[1], tuple):
            d = self.kind_pattern(meta, [c[1]])
            d["color"] = c[0]
            return d
        d = self.node(meta, color=c[0], face=str(c[1]))
        if isinstance(c[1], Token):
            self.spans.put(d, _span_tok(c[1]), "face")
        return d

    def rule_name(self, meta, c):
        return c[0]

    def hook_trigger(self, meta, c):
        return "trigger"

    def hook_reaction(self, meta, c):
        return "reaction"

    def replace_copies(self, meta, c):
        count, face, with_ = c
        if isinstance(face, tuple):
            self.problems.append(Diagnostic("U0404", "`replace` takes copies of one card kind, not a range", self.file,
                                            face[2], "a range", "write one `replace` per kind"))
            face = str(face[0])
        d = self.node(meta, count=count, face=face, with_=with_)
        d["with"] = d.pop("with_")
        return self._item("replace_copies", d, meta)

    def remove_hook(self, meta, c):
        kind, name = c
        return self._item("remove_hooks", self.node(meta, kind=kind, name=name), meta)

    def replace_hook(self, meta, c):
        kind, name, cond, actions = c
        d = self.node(meta, kind=kind, name=name)
        if cond is not None:
            d["if"] = cond
        d["actions"] = actions
        return self._item("replace_hooks", d, meta)

    def trigger(self, meta, c):
        event, pattern, name, cond, actions = c
        d = self.node(meta, event=event, name=name)
        if pattern is not None:
            d["of"] = pattern
        if cond is not None:
            d["if"] = cond
        d["actions"] = actions
        return self._item("triggers", d, meta)

    def hand_trigger(self, meta, c):
        count, name, cond, actions = c
        d = self.node(meta, event="hand_reaches", name=name)
        d["count"] = count
        if cond is not None:
            d["if"] = cond
        d["actions"] = actions
        return self._item("triggers", d, meta)

    def false_call(self, meta, c):
        name, actions = c
        return self._item("false_calls", self.node(meta, name=name, actions=actions), meta)

    def declare(self, meta, c):
        name, at, actions = c
        return self._item("declarations", self.node(meta, name=name, at=at, actions=actions), meta)

    def jump_in(self, meta, c):
        by, when = c
        d = self.node(meta)
        if by is not None:
            d["by"] = "anyone"
        if when is not None:
            d["when"] = when
        return self._item("jump_in", d, meta)
