"""The formatter: IR -> canonical .uno text. parse(format(ir)) == ir for every rulebook.

Items come out in a fixed order (header, extends, include, players, colors/sides, options, cards,
removals, decks, setup, turn, reactions, triggers, declarations, jump-in, scoring), two-space
indentation, one statement per line, consecutive numbers written as ranges.

Comments are kept where they were: every emitted line remembers the source line it came from, a
comment on a line of its own goes before the item that followed it in the source (at that item's
indentation), and a comment after code stays at the end of that code's line. A block that holds a
comment is never folded onto one line.
"""
from __future__ import annotations

from typing import NamedTuple

PRECEDENCE = {"or": 1, "and": 2, "not": 3, "is": 4, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
              "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "neg": 7}


def expr(e, parent: int = 0) -> str:
    k = e["kind"]
    if k == "number":
        v = e["value"]
        return repr(v) if isinstance(v, float) else str(v)
    if k == "bool":
        return "true" if e["value"] else "false"
    if k == "string":
        return f'"{e["value"]}"'
    if k == "name":
        return e["name"]
    if k in ("each_other", "each_player"):
        text = "each other" if k == "each_other" else "each player"
        if "as" in e:
            text += f" as {e['as']}"
        if "where" in e:
            text += f" where {expr(e['where'])}"
        return text
    if k == "attr":
        return f"{expr(e['of'], 8)}.{e['name']}"
    if k == "call":
        named = f"{e['as']} where " if "as" in e else ""
        return f"{expr(e['of'], 8)}.{e['name']}({named}{expr(e['arg']) if 'arg' in e else ''})"
    if k == "not":
        return _wrap(f"not {expr(e['of'], PRECEDENCE['not'])}", PRECEDENCE["not"], parent)
    if k == "is":
        return _wrap(f"{expr(e['of'], PRECEDENCE['is'] + 1)} is {e['category']}", PRECEDENCE["is"], parent)
    if k == "neg":
        return _wrap(f"-{expr(e['of'], PRECEDENCE['neg'])}", PRECEDENCE["neg"], parent)
    if k == "conditional":
        return _wrap(f"if {expr(e['if'])} then {expr(e['then'])} else {expr(e['else'])}", 0, parent)
    if k == "aggregate":
        over = expr(e["over"])
        return f"{e['op']}({over}: {expr(e['of'])})" if "of" in e else f"{e['op']}({over})"
    if k == "binary":
        p = PRECEDENCE[e["op"]]
        left_p = p if e["op"] not in ("==", "!=", "<", "<=", ">", ">=") else p + 1
        text = f"{expr(e['left'], left_p)} {e['op']} {expr(e['right'], p + 1)}"
        return _wrap(text, p, parent)
    raise ValueError(f"unknown expression kind {k!r}")


def _wrap(text, p, parent):
    return f"({text})" if p < parent else text


def kind_set(names) -> str:
    """A reaction's kind list: names, number ranges (`0..9`) and categories (`any number`)."""
    out, run = [], []
    for n in names + [None]:
        if isinstance(n, str):
            run.append(n)
            continue
        if run:
            out.append(faces(run))
            run = []
        if n is not None:
            out.append(f"any {n['any']}")
    return ", ".join(out)


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
          "shuffle_hands": "shuffle hands", "flip": "flip",
          "eliminate": "eliminate", "reveal": "reveal", "redraw": "redraw", "cancel_attack": "cancel attack", "double_penalty": "double penalty",
          "resolve_attack": "resolve attack", "take_back": "take back card", "clear_pile": "clear pile", "set_aside_pile": "set aside pile",
          "take_pile": "take pile", "win_round": "win round"}
WITH_EXPR = {"draw": ("draw", "count"), "draw_until_color": ("draw until color", "color"),
             "set_color": ("set color", "color"), "swap_hands": ("swap hands with", "with"),
             "give_hand": ("give hand to", "to"), "exchange": ("exchange card with", "with"),
             "discard_all": ("discard all", "what"), "score": ("score", "amount"),
             "swap_seats": ("swap seats with", "with"), "add_penalty": ("add", "amount"),
             "pass_attack": ("pass attack to", "to"), "look_at": ("look at", "hand")}

# actions written around several expressions (each key of the IR that holds one)
WITH_EXPRS = {"set_score": "set score of {target} to {value}", "put_in_front": "put {card} in front of {to}",
              "discard_from_front": "discard {what} from {from}", "move_to_hand": "move {what} from {from} to hand"}


# actions short enough for a block of one or two of them to stand on one line: `{ draw 2; lose turn }`
FOLDABLE = set(SIMPLE) | set(WITH_EXPR) | set(WITH_EXPRS) | {"pass_hands", "set_counter", "add_counter",
                                                             "clear_counter", "do", "may_play", "let", "show_hand"}


class Line(NamedTuple):
    text: str
    src: int | None           # the source line it came from (None: made up by the formatter)


class Comment(NamedTuple):
    line: int
    column: int               # 0-based: where the `#` stood
    gap: int                  # the spaces between the code and a trailing comment
    text: str
    trailing: bool            # after code on the same line


def comments_of(text: str) -> list[Comment]:
    """Every comment of a .uno text, as the grammar lexes them: `#` to the end of the line,
    outside double-quoted text (which never spans lines)."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        quoted = False
        for i, ch in enumerate(line):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                out.append(Comment(n, i, i - len(line[:i].rstrip()), line[i:].rstrip(), bool(line[:i].strip())))
                break
    return out


class _Format:
    """One formatting run: the spans of the IR (when it came from text) and its comments."""

    def __init__(self, spans=None, comments=()):
        self.spans = spans
        self.comments = list(comments)
        self.comment_lines = {c.line for c in self.comments}

    # -- source lines of IR nodes ---------------------------------------------------------------
    def start(self, node, key=None) -> int | None:
        if self.spans is None:
            return None
        span = self.spans.at(node, key) if key is not None else self.spans.at(node)
        return span.line if span else None

    def end(self, node) -> int | None:
        if self.spans is None:
            return None
        span = self.spans.at(node)
        return span.end_line if span else None

    def has_comment(self, node) -> bool:
        """Does the node's source range hold a comment? (Then it is not folded onto one line.)"""
        if not self.comment_lines or self.spans is None:
            return False
        span = self.spans.at(node)
        return span is not None and span.end_line > span.line and \
            any(span.line <= n <= span.end_line for n in self.comment_lines)

    # -- actions --------------------------------------------------------------------------------
    def action(self, a, ind: str) -> list[Line]:
        k = a["kind"]
        src = self.start(a)
        subj = expr(a["subject"]) + " " if "subject" in a else ""
        if k == "eliminate" and a.get("from") == "round":
            return [Line(f"{ind}{subj}eliminate from round", src)]
        if k in SIMPLE and not (k == "flip" and "pile" in a):
            return [Line(f"{ind}{subj}{SIMPLE[k]}", src)]
        if k == "flip":
            return [Line(f"{ind}{subj}flip pile {a['pile']}", src)]
        if k == "do":
            return [Line(f"{ind}{subj}do {a['rule']}", src)]
        if k == "may_play":
            any_ = " any card" if a.get("any") else ""
            where = f" where {expr(a['where'])}" if "where" in a else ""
            return [Line(f"{ind}{subj}may play{any_}{where}", src)]
        if k in WITH_EXPR:
            word, key = WITH_EXPR[k]
            return [Line(f"{ind}{subj}{word} {expr(a[key])}", src)]
        if k in ("give", "take"):
            noun = "card" if a["count"] == {"kind": "number", "value": 1} else "cards"
            where = f" where {expr(a['where'])}" if "where" in a else ""
            if k == "take":
                return [Line(f"{ind}{subj}take {expr(a['count'])} {noun}{where} from {expr(a['from'])}", src)]
            once = " at once" if a.get("at_once") else ""
            return [Line(f"{ind}{subj}give {expr(a['count'])} {noun}{where} to {expr(a['to'])}{once}", src)]
        if k == "pass_hands":
            direction = f" {a['direction']}" if "direction" in a else ""
            return [Line(f"{ind}{subj}pass hands{direction}", src)]
        if k == "choose_option":
            return [Line(f"{ind}{subj}choose one of {', '.join(a['options'])} as {a['as']}", src)]
        if k == "choose_number":
            rng = f" from {expr(a['low'])} to {expr(a['high'])}" if "low" in a else ""
            return [Line(f"{ind}{subj}choose number{rng} as {a['as']}", src)]
        if k == "choose_kind":
            where = f" where {expr(a['where'])}" if "where" in a else ""
            return [Line(f"{ind}{subj}choose kind{where} as {a['as']}", src)]
        if k == "let":
            return [Line(f"{ind}{subj}let {a['as']} = {expr(a['value'])}", src)]
        if k == "show_hand":
            until = "next turn ends" if a["until"] == "next_turn" else "round ends"
            return [Line(f"{ind}{subj}shows hand until {until}", src)]
        if k in WITH_EXPRS:
            text = WITH_EXPRS[k].format(**{key: expr(v) for key, v in a.items() if isinstance(v, dict)})
            return [Line(f"{ind}{subj}{text}", src)]
        if k == "set_counter":
            value = f" to {expr(a['value'])}" if "value" in a else ""
            return [Line(f"{ind}{subj}set {a['counter']}{value}", src)]
        if k == "add_counter":
            return [Line(f"{ind}{subj}add {expr(a['amount'])} to {a['counter']}", src)]
        if k == "clear_counter":
            return [Line(f"{ind}{subj}clear {a['counter']}", src)]
        if k == "choose_player":
            where = f" where {expr(a['where'])}" if "where" in a else ""
            as_ = f" as {a['as']}" if "as" in a else ""
            return [Line(f"{ind}{subj}choose {'other ' if a['other'] else ''}player{where}{as_}", src)]
        if k == "attack":
            pen = f" penalty {expr(a['penalty'])}" if "penalty" in a else ""
            return self.block(Line(f"{ind}{subj}attack {expr(a['target'])}{pen}", src), a["actions"], ind)
        if k == "group":                   # `{ ... }`, with its subject if it has one
            return self.block(Line(f"{ind}{subj}".rstrip() if subj else ind, src), a["actions"], ind)
        if k == "if":
            lines = []
            for i, br in enumerate(a["branches"]):
                head = f"{ind}{subj}if {expr(br['when'])}" if i == 0 else f"{ind}else if {expr(br['when'])}"
                lines += self.block(Line(head, self.start(br["when"]) if i else src), br["then"], ind)
            if "otherwise" in a:
                lines += self.block(Line(f"{ind}else", self.start(a["otherwise"])), a["otherwise"], ind)
            return lines
        if k == "chance":
            lines = [Line(f"{ind}{subj}chance {a['name']} {{", src)]
            for o in a["outcomes"]:
                w = f" weight {expr(o['weight'])}" if "weight" in o else ""
                lines += self.block(Line(f"{ind}  {o['name']}{w}", self.start(o)), o["actions"], ind + "  ")
            return lines + [Line(f"{ind}}}", self.end(a))]
        if k == "repeat":
            most = f" at most {a['most']}" if "most" in a else ""
            return self.block(Line(f"{ind}{subj}repeat until {expr(a['until'])}{most}", src), a["actions"], ind)
        if k == "perform":
            ch = f" chance {expr(a['chance'])}" if "chance" in a else ""
            lines = self.block(Line(f"{ind}{subj}perform {a['name']}{ch}", src), a["actions"], ind)
            if "otherwise" in a:
                lines += self.block(Line(f"{ind}else", self.start(a["otherwise"])), a["otherwise"], ind)
            return lines
        raise ValueError(f"unknown action kind {k!r}")

    def block(self, head: Line, actions, ind) -> list[Line]:
        opener = head.text + " " if head.text.strip() else head.text       # a bare block has no head
        if not actions:
            return [Line(f"{opener}{{}}", head.src)]
        if len(actions) <= 2 and all(a["kind"] in FOLDABLE for a in actions) \
                and not self.has_comment(actions):
            inner = "; ".join(self.action(a, "")[0].text for a in actions)
            if len(head.text) + len(inner) < 90:
                return [Line(f"{opener}{{ {inner} }}", head.src)]
        lines = [Line(f"{opener}{{", head.src)]
        for a in actions:
            lines += self.action(a, ind + "  ")
        return lines + [Line(f"{ind}}}", self.end(actions))]

    def after_colon(self, head: Line, actions, ind) -> list[Line]:
        if len(actions) == 1:
            one = self.action(actions[0], "")
            if len(one) == 1 and not (self.has_comment(actions) and one[0].src != head.src):
                return [Line(f"{head.text}: {one[0].text}", head.src)]
        lines = [Line(f"{head.text}:", head.src)]
        for a in actions:
            lines += self.action(a, ind + "  ")
        return lines

    # -- items ----------------------------------------------------------------------------------
    def card(self, c) -> list[Line]:
        lines = [Line(f"card {faces(c['names'])} {{", self.start(c))]
        for key, text in (("category", lambda: c["category"]), ("side", lambda: f"side {c['side']}"),
                          ("matches_as", lambda: f"matches as {c['matches_as']}"),
                          ("points", lambda: f"points {expr(c['points'])}"),
                          ("at_any_time", lambda: "playable at any time"),
                          ("playable_when", lambda: f"playable when {expr(c['playable_when'])}"),
                          ("legal_when", lambda: f"legal when {expr(c['legal_when'])}")):
            if key in c:
                lines.append(Line(f"  {text()}", self.start(c, key)))
        for e in c.get("effects", []):
            lines += self.after_colon(Line(f"  on {e['event']}", self.start(e)), e["actions"], "  ")
        if "challenge" in c:
            lines += self.after_colon(Line("  challenge", self.start(c, "challenge")), c["challenge"], "  ")
        return lines + [Line("}", self.end(c))]

    def settings(self, word, node, rows) -> list[Line]:
        """`setup { ... }`, `turn { ... }`, `scoring { ... }`: rows of (key, lines)."""
        lines = [Line(f"{word} {{", self.start(node))]
        for key, text in rows:
            if key in node:
                lines += text() if callable(text) else [Line(f"  {text}", self.start(node, key))]
        return lines + [Line("}", self.end(node))]

    def rulebook(self, ir: dict) -> list[list[Line]]:
        """The file as paragraphs (lists of lines), in canonical order."""
        paras: list[list[Line]] = []
        title = f' "{ir["title"]}"' if "title" in ir else ""
        paras.append([Line(f"{ir['kind']} {ir['name']}{title}", self.start(ir, "name") or self.start(ir, "kind"))])
        head: list[Line] = []
        for key, text in (("extends", lambda: f"extends {ir['extends']}"),
                          ("for", lambda: f"for {ir['for']}"),
                          ("include", lambda: "include " + ", ".join(ir["include"])),
                          ("players", lambda: f"players {ir['players']['min']}..{ir['players']['max']}"),
                          ("colors", lambda: "colors " + " ".join(ir["colors"]))):
            if ir.get(key):
                src = self.start(ir["include"]) if key == "include" else self.start(ir, key)
                head.append(Line(text(), src))
        for s in ir.get("sides", []):
            head.append(Line(f"side {s['name']} colors " + " ".join(s["colors"]), self.start(s)))
        if ir.get("pair_sides"):
            head.append(Line("pair sides shuffled", self.start(ir, "pair_sides")))
        if "teams" in ir:
            head.append(Line(f"teams of {ir['teams']['size']} partners {ir['teams']['seating']}", self.start(ir, "teams")))
        if "piles" in ir:
            head.append(Line("piles " + " ".join(ir["piles"]), self.start(ir, "piles")))
        if "out_of_turn" in ir:
            head.append(Line(f"out of turn order {ir['out_of_turn']}", self.start(ir, "out_of_turn")))
        for o in ir.get("options", []):
            h = f' "{o["help"]}"' if "help" in o else ""
            head.append(Line(f"option {o['name']} = {expr(o['value'])}{h}", self.start(o)))
        for c in ir.get("counters", []):
            words = [c["kind"], c["name"]] + (["per player"] if c["per"] == "player" else []) + \
                (["hidden"] if c.get("hidden") else []) + \
                ([{"turn": "reset each turn", "round": "reset each round",
                   "next_turn": "reset after next turn", "at_next_turn": "reset at next turn"}[c["reset"]]] if "reset" in c else [])
            head.append(Line(" ".join(words), self.start(c)))
        if head:
            paras.append(head)
        for r in ir.get("rules", []):
            paras.append(self.after_colon(Line(f"rule {r['name']}", self.start(r)), r["actions"], ""))
        for c in ir.get("cards", []):
            paras.append(self.card(c))
        replaced = [Line(f"replace {r['count']} × {r['face']} with {r['with']}", self.start(r))
                    for r in ir.get("replace_copies", [])]
        if replaced:                 # before the removals: a kind left with no copies may then go
            paras.append(replaced)
        for r in ir.get("remove_cards", []):
            paras.append([Line(f"remove card {faces(r['names'])}", self.start(r))])
        removals = [Line(f"remove {r['block']} {r['key']}", self.start(r)) for r in ir.get("remove_settings", [])]
        if removals:
            paras.append(removals)
        for d in ir.get("deck", []):
            side = f" side {d['side']}" if "side" in d else ""
            lines = [Line(f"deck{side} {{", self.start(d))]
            for e in d["entries"]:
                if e["kind"] == "per_color":
                    lines.append(Line("  per color: " + ", ".join(_copies(c) for c in e["copies"]), self.start(e)))
                else:
                    lines.append(Line("  " + _copies(e), self.start(e)))
            paras.append(lines + [Line("}", self.end(d))])
        if "setup" in ir:
            s = ir["setup"]
            paras.append(self.settings("setup", s, [
                ("hand", f"hand {expr(s['hand'])}" if "hand" in s else ""),
                ("cut", lambda: self.after_colon(Line(f"  cut chance {expr(s['cut']['chance'])}", self.start(s["cut"])),
                                                 s["cut"]["actions"], "  "))]))
        if "turn" in ir:
            t = ir["turn"]
            drawn = ""
            if isinstance(t.get("drawn_card"), dict):
                drawn = f"drawn card must play when {expr(t['drawn_card']['must_play_when'])}"
            elif "drawn_card" in t:
                drawn = "drawn card " + {"may_play": "may play", "must_play": "must play", "is_kept": "is kept"}[t["drawn_card"]]
            paras.append(self.settings("turn", t, [
                ("draw_until_playable", "draw until playable"), ("draw_only_when_stuck", "draw only when stuck"),
                ("drawn_card", drawn), ("multi_play", "play same face together"),
                ("turn_cap", f"cap {t.get('turn_cap')} turns"),
                ("draw_with", lambda: self.block(Line("  draw with", self.start(t, "draw_with")), t["draw_with"], "  ")),
                ("draw_up_to", f"draw up to {t.get('draw_up_to')} cards"), ("may_pass", "may pass"),
                ("new_deck", "when the draw pile runs out: new deck")]))
        for r in ir.get("reactions", []):
            cond = f" if {expr(r['if'])}" if "if" in r else ""
            named = f" as {r['name']}" if "name" in r else ""
            head_ = f"react to {kind_set(r['to'])} with {kind_set(r['with'])}{named}{cond}"
            paras.append(self.after_colon(Line(head_, self.start(r)), r["actions"], ""))
        for t in ir.get("triggers", []):
            of = ""
            if "of" in t:
                of = " of " + (f"{t['of']['color']} " if "color" in t["of"] else "") + t["of"]["face"]
            cond = f" if {expr(t['if'])}" if "if" in t else ""
            named = f" as {t['name']}" if "name" in t else ""
            event = f"hand reaches {expr(t['count'])}" if t["event"] == "hand_reaches" and "count" in t else t["event"]
            paras.append(self.after_colon(Line(f"on {event}{of}{named}{cond}", self.start(t)), t["actions"], ""))
        removals = [Line(f"remove {r['kind']} {r['name']}", self.start(r)) for r in ir.get("remove_hooks", [])]
        if removals:
            paras.append(removals)
        for r in ir.get("replace_hooks", []):
            cond = f" if {expr(r['if'])}" if "if" in r else ""
            paras.append(self.after_colon(Line(f"replace {r['kind']} {r['name']}{cond}", self.start(r)), r["actions"], ""))
        for d in ir.get("declarations", []):
            noun = "card" if d["at"] == 1 else "cards"
            paras.append(self.after_colon(Line(f"declare {d['name']} at {d['at']} {noun}", self.start(d)),
                                          d["actions"], ""))
        for r in ir.get("play_rules", []):
            head_ = "play only when" if r["kind"] == "play_only_when" else "may play on anything when"
            paras.append([Line(f"{head_} {expr(r['when'])}", self.start(r))])
        for f in ir.get("false_calls", []):
            paras.append(self.after_colon(Line(f"false {f['name']} call", self.start(f)), f["actions"], ""))
        if "jump_in" in ir:
            when = f" when {expr(ir['jump_in']['when'])}" if "when" in ir["jump_in"] else ""
            by = " by anyone" if ir["jump_in"].get("by") == "anyone" else ""
            paras.append([Line(f"jump in{by}{when}", self.start(ir, "jump_in"))])
        if "scoring" in ir:
            s = ir["scoring"]
            method = (f"winner scores {expr(s['method']['winner_scores'])}" if isinstance(s.get("method"), dict) else
                      {"winner_scores_others": "winner scores others",
                       "each_scores_own_hand": "each scores own hand", "no_points": "no points"}.get(s.get("method"), ""))
            rows = [("method", method)]
            rows += [(key, f"{word} {expr(s[key])}" if key in s else "")
                     for key, word in (("target", "target"), ("eliminate_above", "eliminate above"), ("rounds", "rounds"))]
            rows += [("to_the_last", "play to the last"), ("single_round", "single round")]
            rows += [(key, f"{word} {expr(s[key])}" if key in s else "")
                     for key, word in (("places", "places"), ("rank_rest_by", "rank rest by"),
                                       ("next_dealer", "next dealer"), ("next_leader", "next leader"))]
            paras.append(self.settings("scoring", s, [(k, v) for k, v in rows if k in s and s[k] is not False]))
        return paras

    # -- comments -------------------------------------------------------------------------------
    def place_comments(self, lines: list[Line]) -> list[str]:
        """The lines with the source's comments put back: trailing ones after the last line that
        came from their source line, the others before the first line that came from a later one."""
        texts = [ln.text for ln in lines]
        before: dict[int, list[str]] = {}
        after: dict[int, list[str]] = {}
        at_end: list[str] = []
        for c in self.comments:
            if c.trailing:
                same = [i for i, ln in enumerate(lines) if ln.src == c.line]
                if not same:
                    same = [i for i, ln in enumerate(lines) if ln.src is not None and ln.src <= c.line][-1:]
                if same:
                    after.setdefault(same[-1], []).append(c)
                    continue
            later = [(ln.src, i) for i, ln in enumerate(lines) if ln.src is not None and ln.src > c.line]
            if later:
                before.setdefault(min(later)[1], []).append(c)
            else:
                at_end.append(c)
        out = []
        for i, text in enumerate(texts):
            for c in before.get(i, []):
                # its own indentation, kept between the next line's and the previous line's: a
                # comment that closes a block stays in it
                nxt = len(text) - len(text.lstrip()) if text.strip() else 0
                prev = next((len(t) - len(t.lstrip()) for t in reversed(out) if t.strip()), 0)
                ind = min(max(c.column, nxt), max(prev, nxt))
                out.append(" " * ind + c.text)
            for c in after.get(i, []):        # as far from the code as it was
                text += " " * max(1, c.gap) + c.text
            out.append(text)
        if at_end:
            out += [""] + [c.text for c in at_end]
        return out


def _copies(c) -> str:
    return f"{c['count']} × {faces(c['faces'])}"


def format_rulebook(ir: dict, spans=None, comments=()) -> str:
    """Canonical text of a file's IR; with `spans` and `comments` (from the source), keep comments
    where they were."""
    f = _Format(spans, comments)
    lines: list[Line] = []
    for i, para in enumerate(f.rulebook(ir)):
        if i:
            lines.append(Line("", None))
        lines += para
    return "\n".join(f.place_comments(lines)) + "\n"


# the lines of one action or card without a source (explain, authoring and tests use them)
def action(a, ind: str) -> list[str]:
    return [ln.text for ln in _Format().action(a, ind)]


def card(c) -> list[str]:
    return [ln.text for ln in _Format().card(c)]
