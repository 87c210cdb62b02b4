"""A .uno file's tokens as the parser reads them, for an editor: highlighting, the word at the
cursor, the names a file declares and uses, and the words the parser accepts at a place.

`tokens(text)` runs Lark's interactive LALR parser over the text, so each word is typed as the
parser took it in its place (`draw` after `on` is an event's name, after `next` the action's
keyword). From a syntax error on, the rest of the text is read by a plain scan: a word the grammar
has as a keyword anywhere is a keyword there. Comments, which the parser skips, are added.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from lark import Token as LarkToken
from lark.exceptions import LarkError, UnexpectedToken

from unorules.language.parser import NAME_WORD, lark_parser


@dataclass(frozen=True)
class Token:
    type: str          # the grammar's terminal (NAME, INT, STRING, DRAW, LBRACE ...), or COMMENT
    text: str
    line: int          # 0-based
    column: int        # 0-based, in characters
    keyword: bool = False

    @property
    def end_column(self) -> int:
        return self.column + len(self.text)

    def covers(self, line: int, column: int) -> bool:
        """Whether the place lies on this token or just after its last character."""
        return self.line == line and self.column <= column <= self.end_column


@functools.cache
def keyword_terminals() -> dict[str, str]:
    """Terminal name -> the words it stands for, for every keyword of the grammar (the multi-word
    tokens such as `play only` too)."""
    out = {}
    for term in lark_parser().terminals:
        if term.pattern.type == "str":
            if re.fullmatch(r"[a-z_]+", term.pattern.value):
                out[term.name] = term.pattern.value
        elif term.name.startswith("_") and re.match(r"[a-z]+\[", term.pattern.value):
            words = re.findall(r"[a-z]+", term.pattern.value.split("(?!")[0])
            out[term.name] = " ".join(words)
    return out


@functools.cache
def symbol_terminals() -> dict[str, str]:
    """Terminal name -> text of the grammar's punctuation and operators (`{`, `..`, `×`)."""
    return {t.name: t.pattern.value for t in lark_parser().terminals
            if t.pattern.type == "str" and not re.fullmatch(r"[a-z_]+", t.pattern.value)}


def _words() -> dict[str, str]:
    return {text: name for name, text in keyword_terminals().items() if " " not in text}


_SCAN = re.compile(r'(?P<STRING>"[^"\n]*")|(?P<DECIMAL>[0-9]+\.[0-9]+(?![0-9.]))|(?P<INT>[0-9]+)'
                   r'|(?P<NAME>[a-z_][a-z0-9_]*)|(?P<COMMENT>#[^\n]*)|(?P<SPACE>\s+)'
                   r'|(?P<COMPARE>==|!=|<=|>=|<|>)|(?P<OP>\.\.|[^\sa-z0-9_"#])')


def _scan(text: str, start: int, line: int, line_start: int) -> list[Token]:
    """A plain scan of text[start:], for what follows a syntax error."""
    words = _words()
    out = []
    for m in _SCAN.finditer(text, start):
        kind, value = m.lastgroup, m.group(0)
        if kind == "SPACE":
            n = value.count("\n")
            if n:
                line += n
                line_start = m.start() + value.rindex("\n") + 1
            continue
        if kind == "COMMENT":
            continue                       # added by _comments, for the whole text
        col = m.start() - line_start
        if kind == "NAME" and value in words:
            out.append(Token(words[value], value, line, col, True))
        else:
            out.append(Token(kind, value, line, col))
    return out


def _comments(text: str) -> list[Token]:
    out = []
    for i, line in enumerate(text.split("\n")):
        in_string = False
        for j, ch in enumerate(line):
            if ch == '"':
                in_string = not in_string
            elif ch == "#" and not in_string:
                out.append(Token("COMMENT", line[j:].rstrip("\r"), i, j))
                break
    return out


def tokens(text: str) -> list[Token]:
    """Every token of the text, comments too, in order of place."""
    keywords = keyword_terminals()
    out: list[Token] = []
    stop, line, line_start = 0, 0, 0
    parser = lark_parser().parse_interactive(text)
    while parser is not None:
        try:
            for t in parser.iter_parse():
                if t.type == "$END":
                    break
                # a multi-word token (`play only`) may span lines: its first line holds it
                out.append(Token(t.type, str(t), t.line - 1, t.column - 1, t.type in keywords))
                stop = t.end_pos
            parser = None
        except UnexpectedToken as e:
            # a keyword where a name is wanted is the name, as the parser reads it (keyword_as_name):
            # iter_parse yielded it before feeding it, so the parser is still where it took it
            t, ip, parser = e.token, parser, None
            if t.type not in ("NAME", "$END") and NAME_WORD.fullmatch(str(t)) and out and "NAME" in ip.accepts():
                out[-1] = Token("NAME", str(t), t.line - 1, t.column - 1, False)
                ip.feed_token(LarkToken.new_borrow_pos("NAME", str(t), t))
                parser = ip
        except (LarkError, RecursionError):
            parser = None
    if out:
        last = out[-1]
        line = last.line + last.text.count("\n")
        line_start = text.rfind("\n", 0, stop) + 1
    rest = _scan(text, stop, line, line_start) if stop < len(text) else []
    return sorted(out + rest + _comments(text), key=lambda t: (t.line, t.column))


def token_at(toks: list[Token], line: int, column: int) -> Token | None:
    """The token at a place (or ending just before it), preferring a name or keyword."""
    found = [t for t in toks if t.covers(line, column) and t.type != "COMMENT"]
    for t in found:
        if t.type == "NAME" or t.keyword:
            return t
    return found[0] if found else None
