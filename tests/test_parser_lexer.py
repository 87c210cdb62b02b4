"""The parser's own state lexers (language/parser.py, `_StateLexer`) read every text as Lark's
contextual lexer does: the same tokens at the same places, and the same error where a text is
wrong. The reference is Lark itself with nothing of ours but the grammar and `always_accept`."""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from fuzz_rulebooks import fuzzed_rulebook, grammar_rulebook
from unorules.language.parser import _KeywordLexer, _WholeWords, grammar_text, lark_parser, parse_uno

ROOT = Path(__file__).resolve().parent.parent
TEXTS = sorted([*(ROOT / "rulebooks").rglob("*.uno"), *(ROOT / "tests/data").glob("*.uno")])


@functools.cache
def lark_reference() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True,
                postlex=_WholeWords())


def reading(parser: Lark, text: str):
    """What a parser makes of a text: its tree and every token's type and place, or its error."""
    try:
        tree = parser.parse(text)
    except UnexpectedInput as e:
        token = getattr(e, "token", None)
        return ("error", type(e).__name__, e.line, e.column, getattr(e, "pos_in_stream", None),
                token and (token.type, str(token)), sorted(getattr(e, "expected", None) or getattr(e, "allowed", ())))
    tokens = [(t.type, str(t), t.line, t.column, t.end_line, t.end_column, t.start_pos, t.end_pos)
              for t in tree.scan_values(lambda v: isinstance(v, Token))]
    return tree.pretty(), tokens


def mutations(text: str, rng: random.Random, count: int) -> list[str]:
    """The text with a character dropped, doubled or replaced by a symbol, or a word swapped in."""
    out = []
    for _ in range(count):
        i = rng.randrange(len(text))
        what = rng.randrange(4)
        if what == 0:
            out.append(text[:i] + text[i + 1:])
        elif what == 1:
            out.append(text[:i] + text[i] + text[i:])
        elif what == 2:
            out.append(text[:i] + rng.choice("{}()<>=!:;.,-+*/%×\"#@x1_") + text[i + 1:])
        else:
            out.append(text[:i] + rng.choice([" draw ", " when ", " x ", " 1.5 ", " 2..3 ", " \"t\" "]) + text[i:])
    return out


def test_our_parser_uses_our_state_lexers():
    lexer = lark_parser().parser.lexer
    assert isinstance(getattr(lexer, "lexer", lexer), _KeywordLexer)     # (behind the post-lexer)


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_every_shipped_and_test_file_reads_as_with_lark_s_lexer(path):
    text = path.read_text("utf-8")
    ours = reading(lark_parser(), text)
    assert ours == reading(lark_reference(), text)
    # a keyword written where a name is wanted (`next` after `draw until color X`) stops both at the
    # same place; parse_uno reads it as the name (parser._keyword_as_name), so the file reads
    assert ours[0] != "error" or not parse_uno(text, str(path))[2]


@pytest.mark.parametrize("path", TEXTS[::3], ids=lambda p: p.name)
def test_broken_texts_fail_where_lark_s_lexer_fails(path):
    rng = random.Random(path.name)
    text = path.read_text("utf-8")
    for broken in mutations(text, rng, 25):
        assert reading(lark_parser(), broken) == reading(lark_reference(), broken), broken


def test_generated_rulebooks_read_as_with_lark_s_lexer():
    for seed in range(60):
        rng = random.Random(seed)
        for text in (grammar_rulebook(rng), fuzzed_rulebook(rng)):
            assert reading(lark_parser(), text) == reading(lark_reference(), text)
            for broken in mutations(text, rng, 3):
                assert reading(lark_parser(), broken) == reading(lark_reference(), broken), broken
