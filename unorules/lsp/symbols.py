"""The names a .uno file declares and the files it links to, read from its tokens: what an editor's
outline, go-to-definition, find-references and hover need.

A top-level item begins, at brace depth 0, with one of the grammar's item keywords; the few of
those that actions use too (`turn` in `lose turn`, `card` in `give 1 card`, `false`, `side`) count
only in their item's shape (`turn {`, `card NAME {`, `false NAME call`, `side NAME colors`). On a
file that parses, tests hold these declarations to the IR's: every card, counter, flag, option,
named rule and call the IR has is found, where its span says.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .tokens import Token, tokens

ITEM_STARTS = {"EXTENDS", "FOR", "INCLUDE", "PLAYERS", "COLORS", "SIDE", "OPTION", "CARD", "REMOVE", "COUNTER",
               "FLAG", "DECK", "PAIR", "SETUP", "TURN", "REACT", "ON", "REPLACE", "DECLARE", "FALSE", "JUMP",
               "SCORING", "TEAMS", "PILES", "RULE", "OUT", "_PLAY_ONLY", "_MAY_PLAY_ON_ANYTHING"}
LINKS = {"EXTENDS": "extends", "FOR": "for", "INCLUDE": "include"}

# what each kind of declaration is called, for messages and the outline
KINDS = ("card", "counter", "flag", "option", "rule", "trigger", "reaction", "call", "pile", "color", "side")


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str                  # one of KINDS
    token: Token               # the name where it is declared
    start: Token               # the item's first token
    end: tuple[int, int]       # the item's end: (line, column), exclusive
    detail: str = ""           # the item's head as written (`counter plays_left per player reset each turn`)


@dataclass(frozen=True)
class Link:
    how: str                   # extends, include, for
    token: Token               # the name of the rulebook or module


@dataclass(frozen=True)
class Item:
    """One top-level item: its first token, its end, and what it is called in an outline."""
    label: str
    start: Token
    end: tuple[int, int]
    name_token: Token


@dataclass
class FileSymbols:
    toks: list[Token]
    symbols: list[Symbol] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    header: Token | None = None        # the name after `rulebook` or `module`

    def declared(self, name: str) -> list[Symbol]:
        return [s for s in self.symbols if s.name == name]

    def uses(self, name: str) -> list[Token]:
        """Every place the name is written as a name (declarations too)."""
        return [t for t in self.toks if t.type == "NAME" and t.text == name]


def _is_item_start(toks: list[Token], i: int) -> bool:
    t = toks[i]
    if not t.keyword or t.type not in ITEM_STARTS:
        return False
    after = [x for x in toks[i + 1:i + 12] if x.type != "COMMENT"]
    nxt = after[0] if after else None
    if t.type == "TURN":
        return nxt is not None and nxt.type == "LBRACE"
    if t.type == "CARD":            # card FACES {
        for x in after:
            if x.type == "LBRACE":
                return True
            if x.type not in ("NAME", "INT", "COMMA", "__ANON_0"):
                return False
        return False
    if t.type == "FALSE":
        return len(after) > 1 and after[0].type == "NAME" and after[1].text == "call"
    if t.type == "SIDE":
        return len(after) > 1 and after[0].type == "NAME" and after[1].type == "COLORS"
    if t.type == "PLAYERS":
        return nxt is not None and nxt.type == "INT"
    return True


def _head(toks: list[Token], start: int, stop: int) -> str:
    """The item's words up to its block or colon, as written (one line)."""
    words = []
    for t in toks[start:stop]:
        if t.type in ("LBRACE", "COLON") or t.type == "COMMENT":
            break
        words.append(t.text)
    return " ".join(words)[:120]


def item_starts(code: list[Token], line_starts: frozenset = frozenset()) -> list[int]:
    """The indexes of the tokens (comments left out) that begin top-level items: an item keyword at
    brace depth 0, in its item's shape. A word of `line_starts` at the start of a line counts too,
    whatever the parser made of it (after a syntax error, `on` may have been read as a name)."""
    depth, starts = 0, []
    for i, t in enumerate(code):
        if t.type == "LBRACE":
            depth += 1
        elif t.type == "RBRACE":
            depth = max(0, depth - 1)
        elif depth == 0 and _is_item_start(code, i):
            starts.append(i)
        elif t.column == 0 and t.text in line_starts:
            starts.append(i)
    return starts


def read_symbols(text: str) -> FileSymbols:
    toks = tokens(text)
    out = FileSymbols(toks)
    code = [t for t in toks if t.type != "COMMENT"]
    if len(code) >= 2 and code[0].type in ("RULEBOOK", "MODULE") and code[1].type == "NAME":
        out.header = code[1]
    starts = item_starts(code)
    for n, i in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(code)
        last = code[stop - 1]
        end = (last.line, last.end_column)
        _read_item(code, i, stop, end, out)
    return out


def _read_item(code: list[Token], i: int, stop: int, end, out: FileSymbols):
    t = code[i]
    body = code[i + 1:stop]
    head = _head(code, i, stop)

    def declare(tok, kind):
        out.symbols.append(Symbol(tok.text, kind, tok, t, end, head))

    label, name_token = head, t
    if t.type in LINKS:
        for x in body:
            if x.type == "NAME":
                out.links.append(Link(LINKS[t.type], x))
            elif x.type != "COMMA":
                break
    elif t.type == "CARD":
        faces = ""
        for x in body:
            if x.type == "LBRACE":
                break
            faces += {"COMMA": ", "}.get(x.type, x.text)
            if x.type == "NAME":
                declare(x, "card")
        label = f"card {faces}"
        name_token = next((x for x in body if x.type in ("NAME", "INT")), t)
    elif t.type in ("COUNTER", "FLAG", "OPTION", "RULE", "DECLARE") and body and body[0].type == "NAME":
        declare(body[0], {"COUNTER": "counter", "FLAG": "flag", "OPTION": "option", "RULE": "rule",
                          "DECLARE": "call"}[t.type])
        name_token = body[0]
    elif t.type in ("PILES", "COLORS"):
        for x in body:
            if x.type != "NAME":
                break
            declare(x, "pile" if t.type == "PILES" else "color")
    elif t.type == "SIDE" and body:
        declare(body[0], "side")
        name_token = body[0]
        for x in body[2:]:
            if x.type != "NAME":
                break
            declare(x, "color")
    elif t.type in ("ON", "REACT"):
        for j, x in enumerate(body):
            if x.type in ("COLON", "IF"):
                break
            if x.type == "AS" and j + 1 < len(body) and body[j + 1].type == "NAME":
                declare(body[j + 1], "trigger" if t.type == "ON" else "reaction")
                name_token = body[j + 1]
                break
        if t.type == "ON" and body and body[0].type == "NAME" and name_token is t:
            name_token = body[0]
    out.items.append(Item(label, t, end, name_token))
