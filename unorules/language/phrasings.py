"""What a first-time author probably meant: phrasings people write that the grammar refuses
(`next draw 2 cards`, `skip next`, `every other player draw 1`), recognised on the line of a
syntax error (or the line before it, where the error only shows at the next line) and said as a
did-you-mean with the exact place. The parser's own message stands where none matches."""
from __future__ import annotations

import re
from typing import NamedTuple

from unorules.errors import Span


class Phrasing(NamedTuple):
    pattern: re.Pattern          # over one line; group "at" is what is wrong
    message: str                 # `{0}` is the matched text
    help: str                    # `{…}` fields: the pattern's named groups


_ACT = r"(?P<who>next|previous|me|each other|each player|[a-z_][a-z0-9_.]*)"
PHRASINGS = [
    Phrasing(re.compile(r"\bdraw\s+(?P<n>[0-9a-z_.]+)\s+(?P<at>cards?)\b"),
             "`{0}`: a draw's count is its cards, without the word `cards`", "write `draw {n}`"),
    Phrasing(re.compile(_ACT + r"\s+draw\s+(?P<n>[0-9a-z_.]+)\s+(?P<at>and)\s+lose\s+turn\b"),
             "`{0}`: two actions are not joined by `and`",
             "write them as two actions: `{who} draw {n}; {who} lose turn`"),
    Phrasing(re.compile(r"(?:^|[;{:])\s*(?P<at>skip)\s+(?P<who>next|previous|[a-z_][a-z0-9_.]*)\b"),
             "`{0}`: a skipped turn is `lose turn`, said of the player who loses it",
             "write `{who} lose turn`"),
    Phrasing(re.compile(r"\b(?P<at>(?:every|all|each)\s+other\s+players?|all\s+others|everyone\s+else)\b"),
             "`{0}`: every player but the subject is `each other`", "write `each other` (`each other draw 1`)"),
    Phrasing(re.compile(r"\b(?P<at>every\s+player|all\s+players|everyone)\b(?!\s*\()"),
             "`{0}`: every player, the subject too, is `each player`", "write `each player` (`each player draw 1`)"),
    Phrasing(re.compile(r"\b(?P<at>then)\b\s+(?:next|me|previous|draw|lose|reverse|play|choose|each)\b"),
             "`{0}`: actions follow one another without `then`",
             "separate them with `;` or a new line"),
]


def probable(text: str, line: int, first_on_line: bool):
    """(span, message, help) of a known mis-phrasing on `line` (1-based) or, where the error is the
    first thing on its line, on the line before it; or None."""
    lines = text.splitlines()
    candidates = [line] + ([line - 1] if first_on_line and line > 1 else [])
    for ln in candidates:
        if not 1 <= ln <= len(lines):
            continue
        src = re.sub(r'"[^"]*"', lambda q: " " * len(q.group(0)), lines[ln - 1]).split("#", 1)[0]   # not in text
        for ph in PHRASINGS:
            m = ph.pattern.search(src)
            if m is None:
                continue
            start, end = m.span("at")
            groups = {k: v for k, v in m.groupdict().items() if v is not None}
            phrase = m.group(0).strip(" ;{:")
            return (Span(ln, start + 1, ln, end + 1), ph.message.format(phrase), ph.help.format(**groups))
    return None
