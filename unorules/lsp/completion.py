"""Completion: the words that may be written at a place. The keywords are those Lark's LALR
parser accepts there (read from the start of the top-level item, so an error in an earlier item
does not matter); the names are the rulebook's, chosen by what comes before (files after
`extends`, events after `on`, counters after `set`, card kinds after `×`, a choice's answers after
`NAME ==`)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from lark.exceptions import LarkError

from unorules.language.loader import display_name, shipped_names
from unorules.language.parser import lark_parser
from unorules.language.resources import rulebooks_dir
from unorules.language.vocab import (ATTRIBUTES, CARD_EVENTS, EVENT_WORDS, GLOBAL_NAMES, METHODS, SCOPED_NAMES,
                                     TRIGGER_EVENTS)
from .features import names_of
from .symbols import ITEM_STARTS, item_starts
from .tokens import Token, keyword_terminals, tokens
from .workspace import Workspace


@dataclass(frozen=True)
class Completion:
    label: str
    # keyword, card, color, counter, flag, option, rule, trigger, reaction, event, builtin,
    # attribute, method, rulebook, module
    kind: str
    detail: str = ""


def _item_start(toks: list[Token], before: int) -> int | None:
    """The index of the top-level item the place `before` (a token index) lies in."""
    starts = item_starts(toks[:before], _item_words())
    return starts[-1] if starts else None


@functools.cache
def _item_words() -> frozenset:
    """The item keywords that begin a line only as items (`turn`, `card`, `false` and `side` begin
    actions or card items too)."""
    words = keyword_terminals()
    return frozenset({words[t] for t in ITEM_STARTS if t in words and " " not in words[t]}
                     - {"turn", "card", "false", "side"})


def accepted(text: str) -> set[str] | None:
    """The terminals the parser accepts after `text`, or None when `text` does not parse so far."""
    parser = lark_parser().parse_interactive(text)
    try:
        for _ in parser.iter_parse():
            pass
    except (LarkError, RecursionError):
        return None
    return set(parser.accepts())


def completions(ws: Workspace, path: Path, line: int, column: int) -> list[Completion]:
    text = ws.text(path)
    syms = ws.symbols(path)
    if text is None or syms is None or not syms.toks:       # not a .uno file, or one past the bounds
        return []
    lines = text.split("\n")
    if line >= len(lines):
        return []
    row = lines[line][:column]
    word = re.search(r'"?[a-z_][a-z0-9_]*$|"$', row)        # a name, or a text being typed
    start = column - (len(word.group(0)) if word else 0)
    offset = sum(len(x) + 1 for x in lines[:line]) + start
    prefix_text = text[:offset]
    code = [t for t in tokens(prefix_text) if t.type != "COMMENT"]
    expect = None
    first = _item_start(code, len(code))
    if first is not None:           # from the item's start, so an error in an earlier item does not matter
        item_line, item_col = code[first].line, code[first].column
        item_offset = sum(len(x) + 1 for x in lines[:item_line]) + item_col
        expect = accepted("rulebook _\n" + text[item_offset:offset])
    if expect is None:
        expect = accepted(prefix_text)
    if expect is None:
        return []
    out = []
    keywords = keyword_terminals()
    for term in sorted(expect):
        if term in keywords:
            out.append(Completion(keywords[term], "keyword"))
    if "NAME" in expect:
        out += _names(ws, path, code)
    if "STRING" in expect:
        out += _choice_values(ws, path, code)
    prefix = word.group(0) if word else ""
    seen, result = set(), []
    for c in out:
        if c.label.startswith(prefix) and c.label not in seen:
            seen.add(c.label)
            result.append(c)
    return result


def _choice_values(ws: Workspace, path: Path, code: list[Token]) -> list[Completion]:
    """After `NAME ==` (or `!=`), where NAME is the answer of a `choose one of A, B as NAME`, the
    answers as texts: `"A"`, `"B"`."""
    if len(code) < 2 or code[-1].type != "COMPARE" or code[-2].type != "NAME":
        return []
    name, out = code[-2].text, []
    for part in ws.parts(path):
        syms = ws.symbols(part)
        toks = [t for t in syms.toks if t.type != "COMMENT"] if syms else []
        for i in range(len(toks) - 3):
            if toks[i].type == "CHOOSE" and toks[i + 1].type == "ONE" and toks[i + 2].type == "OF":
                answers, j = [], i + 3
                while j < len(toks) and toks[j].type in ("NAME", "COMMA"):
                    if toks[j].type == "NAME":
                        answers.append(toks[j].text)
                    j += 1
                if j + 1 < len(toks) and toks[j].type == "AS" and toks[j + 1].text == name:
                    what = f"an answer of `choose one of ... as {name}`"
                    out += [Completion(f'"{a}"', "value", what) for a in answers]
    return out


# the keywords after which a new name is written (`counter NAME`, `... as NAME`, `let NAME`)
NEW_NAME_AFTER = {"RULEBOOK", "MODULE", "AS", "COUNTER", "FLAG", "OPTION", "RULE", "DECLARE", "LET", "PILES"}


def _names(ws: Workspace, path: Path, code: list[Token]) -> list[Completion]:
    """The names that may be written after `code` (the tokens before the cursor), by what comes
    before: files after `extends`, events after `on`, counters after `set`, kinds after `×`."""
    prev = code[-1] if code else None
    before = code[-2] if len(code) > 1 else None
    head = _item_start(code, len(code))
    head_type = code[head].type if head is not None else None
    in_header = head is not None and not any(t.type in ("COLON", "LBRACE") for t in code[head:])
    names = names_of(ws, path)

    details = _option_details(ws, path)

    def of(*kinds):
        return [Completion(n, k, details.get(n, "")) for n, k in sorted(names.items()) if k in kinds]
    if prev is None:
        return []
    if prev.type in ("EXTENDS", "FOR") or (head_type == "INCLUDE" and in_header):
        return _files(path, "module" if head_type == "INCLUDE" else "rulebook")
    if prev.type == "AS" and before is not None and before.type == "MATCHES":
        return of("card")
    if prev.type in NEW_NAME_AFTER:
        return []                                  # a new name is written here: none to offer
    if prev.type == "ON":
        depth = sum(1 if t.type == "LBRACE" else -1 if t.type == "RBRACE" else 0 for t in code)
        return [Completion(EVENT_WORDS.get(e, e), "event") for e in sorted(CARD_EVENTS if depth > 0 else TRIGGER_EVENTS)]
    adding = any(t.type == "__ANON_2" for t in code[max(head or 0, len(code) - 8):])     # `add N to NAME`
    if prev.type in ("SET", "CLEAR") or (prev.type == "TO" and adding):
        return of("counter", "flag")
    if prev.type == "DO":
        return of("rule")
    if prev.type in ("TRIGGER", "REACTION") and head_type in ("REMOVE", "REPLACE"):
        return of(prev.type.lower())
    if prev.type == "DOT":
        return ([Completion(a, "attribute") for a in sorted({a for _, a in ATTRIBUTES})]
                + [Completion(m, "method") for m in sorted({m for _, m in METHODS})] + of("counter", "flag"))
    react_kinds = head_type == "REACT" and in_header and not any(t.type == "IF" for t in code[head:])
    if prev.type in ("__ANON_1", "X") or (prev.type == "CARD" and head in (len(code) - 1, len(code) - 2)) \
            or (react_kinds and prev.type in ("TO", "WITH", "COMMA")) \
            or (head_type == "REPLACE" and prev.type == "WITH"):
        return of("card")
    if prev.type == "OF" and head_type == "ON" and in_header:
        return of("card", "color")
    return (of("card", "color", "counter", "flag", "option")
            + [Completion(n, "builtin", GLOBAL_NAMES.get(n) or SCOPED_NAMES[n])
               for n in sorted({**GLOBAL_NAMES, **SCOPED_NAMES})])


def _option_details(ws: Workspace, path: Path) -> dict[str, str]:
    """An option's declaration as written (its value and help), as a completion shows it."""
    out = {}
    for part in ws.parts(path):
        syms = ws.symbols(part)
        for sym in syms.symbols if syms else []:
            if sym.kind == "option":
                out.setdefault(sym.name, sym.detail)
    return out


def _files(path: Path, kind: str) -> list[Completion]:
    out = []
    root = rulebooks_dir()
    for name, p in sorted(shipped_names().items()):
        is_module = p.parent != root
        if is_module == (kind == "module"):
            out.append(Completion(name, kind, display_name(p)))
    try:
        for p in sorted(path.parent.glob("*.uno")):
            if p.resolve() != path.resolve():
                out.append(Completion(p.stem, kind, str(p.name)))
    except OSError:
        pass
    return out
