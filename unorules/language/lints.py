"""Stage 3c: warnings. A rulebook that passes the checker runs; these find the parts of it that can
do nothing: a counter, flag, option or named rule that nothing reads or does, a rule for a card kind
that no deck holds, a condition that is always true or always false, a choice's option that no
condition reads. A card kind that no deck holds is a warning in a rulebook (it may be dealt some
other way) and an error in a module or `--with` file (there it is a misspelt name).

`validate --strict` makes every warning an error; `simulate` and `compare` print them once."""
from __future__ import annotations

from unorules.errors import Diagnostic, did_you_mean
from .ir import all_actions, constant, deck_counts, walk

COMPARISONS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _nodes(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            yield n
            stack.extend(v for v in n.values() if isinstance(v, (dict, list)))
        elif isinstance(n, list):
            stack.extend(v for v in n if isinstance(v, (dict, list)))


def truth(e):
    """True or False when condition `e` has that value in every game (literals and arithmetic on
    them; an option is not constant, since a run may set it), else None."""
    k = e.get("kind")
    if k == "bool":
        return e["value"]
    if k == "not":
        v = truth(e["of"])
        return None if v is None else not v
    if k == "binary" and e["op"] in ("and", "or"):
        a, b = truth(e["left"]), truth(e["right"])
        stop = e["op"] == "or"                 # `true or x` is true, `false and x` is false
        if a is stop or b is stop:
            return stop
        return (not stop) if a is not None and b is not None else None
    if k == "binary" and e["op"] in COMPARISONS:
        try:
            a, b = constant(e["left"]), constant(e["right"])
        except ZeroDivisionError:
            return None
        return COMPARISONS[e["op"]](a, b) if a is not None and b is not None else None
    return None


def conditions(ir):
    """(condition, the node that holds it, its key) for every condition of the rulebook."""
    for card in ir.get("cards", []):
        for key in ("playable_when", "legal_when"):
            if key in card:
                yield card[key], card, key
    for key in ("reactions", "triggers"):
        for r in ir.get(key, []):
            if "if" in r:
                yield r["if"], r, "if"
    if "when" in ir.get("jump_in", {}):
        yield ir["jump_in"]["when"], ir["jump_in"], "when"
    drawn = ir.get("turn", {}).get("drawn_card")
    if isinstance(drawn, dict):
        yield drawn["must_play_when"], drawn, "must_play_when"
    for a in all_actions(ir):
        for br in a.get("branches", []):
            yield br["when"], br, "when"
        for key in ("where",):
            if isinstance(a.get(key), dict):
                yield a[key], a, key
        subj = a.get("subject")
        if isinstance(subj, dict) and "where" in subj:
            yield subj["where"], subj, "where"


def lint(rulebook) -> list[Diagnostic]:
    ir = rulebook.ir
    out: list[Diagnostic] = []

    def warn(code, message, node, key=None, label="", help=None, error=False):
        file, span = rulebook.where(node, key)
        if span is None and key is not None:
            file, span = rulebook.where(node)
        out.append(Diagnostic(code, message, file, span, label, help, severity="error" if error else "warning"))

    read = set()
    for n in _nodes({k: v for k, v in ir.items() if k not in ("counters", "options")}):
        if n.get("kind") in ("name", "attr") and isinstance(n.get("name"), str):
            read.add(n["name"])
    read |= {a["pile"] for a in all_actions(ir) if a["kind"] == "flip" and "pile" in a}
    for c in ir.get("counters", []):
        if c["name"] not in read:
            warn("W0101", f"nothing reads the {c['kind']} `{c['name']}`", c, "name", "never read",
                 "read it in a condition or an amount, or remove it (a value only set changes nothing)")
    for o in ir.get("options", []):
        if o["name"] not in read:
            warn("W0102", f"nothing reads the option `{o['name']}`", o, "name", "never read",
                 "use it in a rule, or remove it: setting it changes nothing")
    done = {a["rule"] for a in all_actions(ir) if a["kind"] == "do"}
    for r in ir.get("rules", []):
        if r["name"] not in done:
            warn("W0103", f"nothing does the rule `{r['name']}`", r, "name", "never done",
                 f"add `do {r['name']}` where it should happen, or remove it")

    counts = deck_counts(ir)
    dealt = [name for name, c in counts.items() if sum(c.values())]
    held = lambda name: sum(counts.get(name, {}).values()) > 0      # noqa: E731
    for t in ir.get("triggers", []):
        if "of" in t and not held(t["of"]["face"]):
            warn("W0104", f"no deck holds `{t['of']['face']}`, so this `on {t['event']}` rule never fires", t["of"],
                 "face", "in no deck", did_you_mean(t["of"]["face"], dealt))
    for r in ir.get("reactions", []):
        for key in ("to", "with"):
            for i, name in enumerate(r[key]):
                if isinstance(name, str) and not held(name):
                    warn("W0104", f"no deck holds `{name}`, so this reaction never happens", r[key], i,
                         "in no deck", did_you_mean(name, dealt))
    if ir.get("kind") == "rulebook" and ir.get("deck"):
        for card in ir.get("cards", []):
            name = card["names"][0]
            if held(name):
                continue
            file = rulebook.origins.get(id(card))
            laid = rulebook.file_kinds.get(file) == "module" or file in rulebook.with_files
            hint = did_you_mean(name, dealt)
            if laid:
                warn("U0505", f"no deck holds the card `{name}`: it is never dealt, so it is never played", card["names"],
                     0, "in no deck", hint or f"add it to the deck: `deck {{ 2 × {name} }}`", error=True)
            else:
                warn("W0107", f"no deck holds the card `{name}`", card["names"], 0, "in no deck",
                     hint or f"add it to the deck (`deck {{ 2 × {name} }}`), unless a rule deals it another way")

    for cond, node, key in conditions(ir):
        v = truth(cond)
        if v is not None:
            located = cond if rulebook.where(cond)[1] is not None else node      # the condition's own place
            warn("W0105", f"this condition is always {'true' if v else 'false'}", located, None if located is cond else key,
                 f"always {'true' if v else 'false'}",
                 "a condition that never changes decides nothing: remove it" + ("" if v else " or the rule it guards"))
    out += _unread_choices(ir, warn)
    for card in colorless_wilds(ir):
        warn("W0108", f"the wild `{card['names'][0]}` never names a color: the current color stays as it was",
             card["names"], 0, "names no color",
             "add `choose color` to its `on play` (or `set color C`), unless the color should stay")
    return out


NAMES_A_COLOR = frozenset(("choose_color", "set_color", "cycle_color", "may_play", "flip"))


def colorless_wilds(ir) -> list:
    """The wild kinds whose play never names a color: no `choose color`, `set color`, `cycle
    color` (nor a further play or a flip, which may) in their `on play`, the rules it does, or an
    `on play` trigger that may fire for them. Such a wild leaves the current color as it was."""
    rules = {r["name"]: r["actions"] for r in ir.get("rules", [])}

    def names_color(actions, seen) -> bool:
        for a in walk(actions):
            if a["kind"] in NAMES_A_COLOR:
                return True
            if a["kind"] == "do" and a["rule"] not in seen and a["rule"] in rules:
                seen.add(a["rule"])
                if names_color(rules[a["rule"]], seen):
                    return True
        return False

    out = []
    counts = deck_counts(ir)
    if not any(sum(counts.get(c["names"][0], {}).values()) for c in ir.get("cards", []) if c.get("category") != "wild"):
        return out                           # a deck of wilds only: no color to name
    triggers = [t for t in ir.get("triggers", []) if t["event"] == "play"]
    for card in ir.get("cards", []):
        if card.get("category") != "wild" or card.get("at_any_time"):
            continue
        plays = [e["actions"] for e in card.get("effects", []) if e["event"] == "play"]
        plays += [t["actions"] for t in triggers if t.get("of", {}).get("face", card["names"][0]) in card["names"]]
        if not any(names_color(actions, set()) for actions in plays):
            out.append(card)
    return out


def _unread_choices(ir, warn) -> list:
    """A `choose one of A, B as NAME` whose NAME is compared with texts: an option that no
    comparison names (where no `if` on NAME has an `otherwise`) does the same as doing nothing."""
    compared: dict[str, set] = {}
    for n in _nodes(ir):
        if n.get("kind") == "binary" and n.get("op") in ("==", "!="):
            for a, b in ((n["left"], n["right"]), (n["right"], n["left"])):
                if a.get("kind") == "name" and b.get("kind") == "string":
                    compared.setdefault(a["name"], set()).add(b["value"])
    covered = set()                 # names judged by a choice with an `else` (an `if` action's, or `if ... then ... else`)
    for n in _nodes(ir):
        if n.get("kind") == "conditional":
            covered |= {m["name"] for m in _nodes(n["if"]) if m.get("kind") == "name"}
    for a in all_actions(ir):
        if a["kind"] == "if" and a.get("otherwise"):
            for br in a["branches"]:
                covered |= {n["name"] for n in _nodes(br["when"]) if n.get("kind") == "name"}
    for a in all_actions(ir):
        if a["kind"] != "choose_option" or a["as"] not in compared or a["as"] in covered:
            continue
        for value in a["options"]:
            if value not in compared[a["as"]]:
                warn("W0106", f"no condition reads the option `{value}` of `{a['as']}`: choosing it does nothing",
                     a, "options", "never read", f'read it: `if {a["as"]} == "{value}" {{ ... }}`, or give an `else`')
    return []
