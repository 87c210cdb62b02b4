"""The formatter: IR -> canonical .uno text. parse(format(ir)) == ir for every rulebook.

Items come out in a fixed order (header, extends, include, players, colors/sides, options, cards,
removals, decks, setup, turn, reactions, triggers, declarations, jump-in, scoring), two-space
indentation, one statement per line, consecutive numbers written as ranges.
"""
from __future__ import annotations

PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
              "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "neg": 7}


def expr(e, parent: int = 0) -> str:
    k = e["kind"]
    if k == "number":
        v = e["value"]
        text = repr(v) if isinstance(v, float) else str(v)
        return text
    if k == "bool":
        return "true" if e["value"] else "false"
    if k == "string":
        return f'"{e["value"]}"'
    if k == "name":
        return e["name"]
    if k == "each_other":
        return "each other"
    if k == "each_player":
        return "each player"
    if k == "attr":
        return f"{expr(e['of'], 8)}.{e['name']}"
    if k == "call":
        return f"{expr(e['of'], 8)}.{e['name']}({expr(e['arg']) if 'arg' in e else ''})"
    if k == "not":
        return _wrap(f"not {expr(e['of'], PRECEDENCE['not'])}", PRECEDENCE["not"], parent)
    if k == "neg":
        return _wrap(f"-{expr(e['of'], PRECEDENCE['neg'])}", PRECEDENCE["neg"], parent)
    if k == "binary":
        p = PRECEDENCE[e["op"]]
        left_p = p if e["op"] not in ("==", "!=", "<", "<=", ">", ">=") else p + 1
        text = f"{expr(e['left'], left_p)} {e['op']} {expr(e['right'], p + 1)}"
        return _wrap(text, p, parent)
    raise ValueError(f"unknown expression kind {k!r}")


def _wrap(text, p, parent):
    return f"({text})" if p < parent else text


def faces(names) -> str:
    """Consecutive numbers as ranges: 0, 1, 2, 3 -> 0..3."""
    out, i = [], 0
    while i < len(names):
        j = i
        if names[i].isdigit():
            while j + 1 < len(names) and names[j + 1].isdigit() and int(names[j + 1]) == int(names[j]) + 1 \
                    and str(int(names[j + 1])) == names[j + 1]:
                j += 1
        if j - i >= 1 and str(int(names[i])) == names[i]:
            out.append(f"{names[i]}..{names[j]}")
        else:
            out.append(names[i])
        i = j + 1
    return ", ".join(out)


SIMPLE = {"draw_until_playable": "draw until playable", "lose_turn": "lose turn", "play_again": "play again",
          "reverse": "reverse", "choose_color": "choose color", "cycle_color": "cycle color",
          "pass_hands": "pass hands", "shuffle_hands": "shuffle hands", "flip": "flip",
          "eliminate": "eliminate", "reveal": "reveal", "redraw": "redraw", "cancel_attack": "cancel attack",
          "resolve_attack": "resolve attack", "take_back": "take back card"}
WITH_EXPR = {"draw": ("draw", "count"), "draw_until_color": ("draw until color", "color"),
             "set_color": ("set color", "color"), "swap_hands": ("swap hands with", "with"),
             "give_hand": ("give hand to", "to"), "exchange": ("exchange card with", "with"),
             "discard_color": ("discard all", "color"), "score": ("score", "amount"),
             "swap_seats": ("swap seats with", "with"), "add_penalty": ("add", "amount"),
             "pass_attack": ("pass attack to", "to")}


def action(a, ind: str) -> list[str]:
    k = a["kind"]
    subj = expr(a["subject"]) + " " if "subject" in a else ""
    if k in SIMPLE:
        return [f"{ind}{subj}{SIMPLE[k]}"]
    if k in WITH_EXPR:
        word, key = WITH_EXPR[k]
        return [f"{ind}{subj}{word} {expr(a[key])}"]
    if k == "give":
        noun = "card" if a["count"] == {"kind": "number", "value": 1} else "cards"
        return [f"{ind}{subj}give {expr(a['count'])} {noun} to {expr(a['to'])}"]
    if k == "choose_player":
        where = f" where {expr(a['where'])}" if "where" in a else ""
        as_ = f" as {a['as']}" if "as" in a else ""
        return [f"{ind}{subj}choose {'other ' if a['other'] else ''}player{where}{as_}"]
    if k == "attack":
        pen = f" penalty {expr(a['penalty'])}" if "penalty" in a else ""
        return _block(f"{ind}{subj}attack {expr(a['target'])}{pen}", a["actions"], ind)
    if k == "if":
        lines = []
        for i, br in enumerate(a["branches"]):
            head = f"{ind}{subj}if {expr(br['when'])}" if i == 0 else f"{ind}else if {expr(br['when'])}"
            lines += _block(head, br["then"], ind)
        if "otherwise" in a:
            lines += _block(f"{ind}else", a["otherwise"], ind)
        return lines
    if k == "chance":
        lines = [f"{ind}{subj}chance {a['name']} {{"]
        for o in a["outcomes"]:
            w = f" weight {expr(o['weight'])}" if "weight" in o else ""
            lines += _block(f"{ind}  {o['name']}{w}", o["actions"], ind + "  ")
        return lines + [f"{ind}}}"]
    if k == "perform":
        ch = f" chance {expr(a['chance'])}" if "chance" in a else ""
        lines = _block(f"{ind}{subj}perform {a['name']}{ch}", a["actions"], ind)
        if "otherwise" in a:
            lines += _block(f"{ind}else", a["otherwise"], ind)
        return lines
    raise ValueError(f"unknown action kind {k!r}")


def _block(head, actions, ind) -> list[str]:
    if not actions:
        return [f"{head} {{}}"]
    if len(actions) <= 2 and all(a["kind"] in SIMPLE or a["kind"] in WITH_EXPR for a in actions):
        inner = "; ".join(action(a, "")[0] for a in actions)
        if len(head) + len(inner) < 90:
            return [f"{head} {{ {inner} }}"]
    lines = [f"{head} {{"]
    for a in actions:
        lines += action(a, ind + "  ")
    return lines + [f"{ind}}}"]


def _actions_after_colon(head, actions, ind) -> list[str]:
    if len(actions) == 1:
        one = action(actions[0], "")
        if len(one) == 1:
            return [f"{head}: {one[0]}"]
    lines = [f"{head}:"]
    for a in actions:
        lines += action(a, ind + "  ")
    return lines


def _copies(c) -> str:
    return f"{c['count']} × {faces(c['faces'])}"


class _Out(list):
    """Output lines; comments from the source are placed before the item that followed them."""

    def __init__(self, spans=None, comments=()):
        super().__init__()
        self.spans = spans
        self.comments = sorted(comments)

    def item(self, node, key, lines, blank=True):
        line = None
        if self.spans is not None:
            span = self.spans.at(node, key) if key is not None else self.spans.at(node)
            line = span.end_line if span else None
        if blank:
            self.append("")
        if line is not None:
            while self.comments and self.comments[0][0] <= line:
                self.append(self.comments.pop(0)[1])
        self.extend(lines)

    def rest(self):
        if self.comments:
            self.append("")
            self.extend(c for _, c in self.comments)


def format_rulebook(ir: dict, spans=None, comments=()) -> str:
    """Canonical text of a file's IR; with `spans` and `comments` (from the source), keep comments."""
    out = _Out(spans, comments)
    title = f' "{ir["title"]}"' if "title" in ir else ""
    out.item(ir, "name", [f"{ir['kind']} {ir['name']}{title}"], blank=False)
    first = True
    for key, text in (("extends", lambda: f"extends {ir['extends']}"),
                      ("for", lambda: f"for {ir['for']}"),
                      ("include", lambda: "include " + ", ".join(ir["include"])),
                      ("players", lambda: f"players {ir['players']['min']}..{ir['players']['max']}"),
                      ("colors", lambda: "colors " + " ".join(ir["colors"]))):
        if ir.get(key):
            out.item(ir.get(key) if key == "include" else ir, None if key == "include" else key, [text()], blank=first)
            first = False
    for s in ir.get("sides", []):
        out.item(s, None, [f"side {s['name']} colors " + " ".join(s["colors"])], blank=first)
        first = False
    if ir.get("pair_sides"):
        out.item(ir, "pair_sides", ["pair sides shuffled"], blank=first)
        first = False
    for o in ir.get("options", []):
        h = f' "{o["help"]}"' if "help" in o else ""
        out.item(o, None, [f"option {o['name']} = {expr(o['value'])}{h}"], blank=first)
        first = False
    for c in ir.get("cards", []):
        out.item(c, None, card(c))
    for r in ir.get("remove_cards", []):
        out.item(r, None, [f"remove card {faces(r['names'])}"])
    for d in ir.get("deck", []):
        side = f" side {d['side']}" if "side" in d else ""
        lines = [f"deck{side} {{"]
        for e in d["entries"]:
            if e["kind"] == "per_color":
                lines.append("  per color: " + ", ".join(_copies(c) for c in e["copies"]))
            else:
                lines.append("  " + _copies(e))
        out.item(d, None, lines + ["}"])
    if "setup" in ir:
        lines = ["setup {"]
        s = ir["setup"]
        if "hand" in s:
            lines.append(f"  hand {expr(s['hand'])}")
        if "cut" in s:
            lines += _actions_after_colon(f"  cut chance {expr(s['cut']['chance'])}", s["cut"]["actions"], "  ")
        out.item(ir, "setup", lines + ["}"])
    if "turn" in ir:
        t = ir["turn"]
        lines = ["turn {"]
        if t.get("draw_until_playable"):
            lines.append("  draw until playable")
        if t.get("draw_only_when_stuck"):
            lines.append("  draw only when stuck")
        if isinstance(t.get("drawn_card"), dict):
            lines.append(f"  drawn card must play when {expr(t['drawn_card']['must_play_when'])}")
        elif "drawn_card" in t:
            lines.append("  drawn card " + {"may_play": "may play", "must_play": "must play",
                                              "is_kept": "is kept"}[t["drawn_card"]])
        if t.get("multi_play"):
            lines.append("  play same face together")
        if "turn_cap" in t:
            lines.append(f"  cap {t['turn_cap']} turns")
        out.item(ir, "turn", lines + ["}"])
    for r in ir.get("reactions", []):
        cond = f" if {expr(r['if'])}" if "if" in r else ""
        head = f"react to {', '.join(r['to'])} with {', '.join(r['with'])}{cond}"
        out.item(r, None, _actions_after_colon(head, r["actions"], ""))
    for t in ir.get("triggers", []):
        of = ""
        if "of" in t:
            of = " of " + (f"{t['of']['color']} " if "color" in t["of"] else "") + t["of"]["face"]
        cond = f" if {expr(t['if'])}" if "if" in t else ""
        out.item(t, None, _actions_after_colon(f"on {t['event']}{of}{cond}", t["actions"], ""))
    for d in ir.get("declarations", []):
        out.item(d, None, _actions_after_colon(f"declare {d['name']} at {d['at']} {'card' if d['at'] == 1 else 'cards'}",
                                               d["actions"], ""))
    if "jump_in" in ir:
        when = f" when {expr(ir['jump_in']['when'])}" if "when" in ir["jump_in"] else ""
        out.item(ir, "jump_in", [f"jump in{when}"])
    if "scoring" in ir:
        s = ir["scoring"]
        lines = ["scoring {"]
        if "method" in s:
            lines.append("  " + {"winner_scores_others": "winner scores others",
                                 "each_scores_own_hand": "each scores own hand"}[s["method"]])
        for key, word in (("target", "target"), ("eliminate_above", "eliminate above"), ("rounds", "rounds")):
            if key in s:
                lines.append(f"  {word} {expr(s[key])}")
        if s.get("to_the_last"):
            lines.append("  play to the last")
        if s.get("single_round"):
            lines.append("  single round")
        out.item(ir, "scoring", lines + ["}"])
    out.rest()
    return "\n".join(out) + "\n"


def card(c) -> list[str]:
    lines = [f"card {faces(c['names'])} {{"]
    if "category" in c:
        lines.append(f"  {c['category']}")
    if "side" in c:
        lines.append(f"  side {c['side']}")
    if "points" in c:
        lines.append(f"  points {expr(c['points'])}")
    if "playable_when" in c:
        lines.append(f"  playable when {expr(c['playable_when'])}")
    if "legal_when" in c:
        lines.append(f"  legal when {expr(c['legal_when'])}")
    for e in c.get("effects", []):
        lines += _actions_after_colon(f"  on {e['event']}", e["actions"], "  ")
    if "challenge" in c:
        lines += _actions_after_colon("  challenge", c["challenge"], "  ")
    return lines + ["}"]
