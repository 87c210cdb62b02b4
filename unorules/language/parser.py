"""Stage 1: .uno text -> IR (plain JSON-compatible data) plus a table of source spans.

The grammar (grammars/unorules.lark) is parsed LALR with positions, with limits on nesting and
depth checked first and syntax errors said in plain words; transform/rulebook.py turns the tree into IR.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import BasicLexer, ContextualLexer

from unorules.errors import Diagnostic, RulebookError, Span, did_you_mean
from .phrasings import probable
from unorules.language.transform.rulebook import ToIR, _span_meta
from . import cache
from .resources import grammar_file
from .spans import Spans

MAX_NESTING = 64          # blocks inside blocks; deeper input is refused before parsing
MAX_DEPTH = 200           # the parse tree's depth (long `not not ...` or operator chains)


def grammar_text() -> str:
    return grammar_file().read_text("utf-8")


class _WholeWords:
    """A pass-through post-lexer whose one job is `always_accept`: with NAME in every state of the
    contextual lexer, a word is always read whole (`draw_too` is one name, never `draw` + `_too`)
    and becomes a keyword only when it equals one that the parser can take there."""
    always_accept = ("NAME",)

    def process(self, stream):
        return stream


_MATCHES: dict = {}       # (regular expression, text, flags) -> does it match the whole text (for every state)
_COMPILED: dict = {}      # (regular expression, flags) -> compiled, once for all the states' lexers


def _regex(pattern: str, flags: int):
    key = (pattern, flags)
    if key not in _COMPILED:
        _COMPILED[key] = re.compile(pattern, flags)
    return _COMPILED[key]


class _StateLexer(BasicLexer):
    """One parser state's lexer, matching as Lark's BasicLexer does but without building a regular
    expression of its own. Lark's contextual lexer has a lexer per state of the LALR table (54 of
    them read `official`), and each compiles one alternation of all its terminals on first use,
    which was a third of a cold `validate`. This one tries the same terminals in Lark's order (a
    text with `startswith`, a pattern by its one compiled expression, shared by every state), so
    the first that matches wins as in the alternation; a word that equals a keyword the state
    takes becomes that keyword, as Lark's `unless` callback does. tests/test_parser_lexer.py holds
    it to Lark's own lexer, token for token and error for error."""

    def _order(self):
        order = getattr(self, "_ordered", None)
        if order is None:
            flags = self.g_regex_flags
            strs = [t for t in self.terminals if t.pattern.type == "str"]
            unless, embedded = {}, set()
            for t in self.terminals:                          # Lark's _create_unless, memoized
                if t.pattern.type != "re":
                    continue
                regexp = t.pattern.to_regexp()
                for st in strs:
                    if st.priority != t.priority:
                        continue
                    key = (regexp, st.pattern.value, flags)
                    if key not in _MATCHES:
                        m = _regex(regexp, flags).match(st.pattern.value)
                        _MATCHES[key] = m is not None and m.group(0) == st.pattern.value
                    if _MATCHES[key]:
                        unless.setdefault(t.name, {}).setdefault(st.pattern.value, st.name)
                        if st.pattern.flags <= t.pattern.flags:
                            embedded.add(st.name)
            order = []
            for t in self.terminals:
                if t.name in embedded:
                    continue
                if t.pattern.type == "str" and not t.pattern.flags:
                    order.append((t.pattern.value, None, t.name, None))
                else:
                    order.append((None, _regex(t.pattern.to_regexp(), flags), t.name, unless.get(t.name)))
            self._ordered = order
            self.callback = dict(self.user_callbacks)
        return order

    def match(self, text, pos):
        whole = getattr(text, "text", text)                  # Lark 1.3 gives a TextSlice, 1.2 the text
        end = getattr(text, "end", len(whole))
        for value, compiled, name, keywords in self._order():
            if compiled is None:
                if whole.startswith(value, pos, end):
                    return value, name
                continue
            m = compiled.match(whole, pos, end)
            if m:
                found = m.group(0)
                return found, (keywords.get(found, name) if keywords else name)
        return None

    def next_token(self, lex_state, parser_state=None):
        self._order()
        return super().next_token(lex_state, parser_state)


class _KeywordLexer(ContextualLexer):
    BasicLexer = _StateLexer


def _cache_file(text: str):
    """Where the LALR tables are kept between runs (Lark's cache is a pickle: only in a folder
    this user alone can write, cache.folder()). None when there is no such place."""
    import hashlib
    place = cache.folder()
    if place is None:
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return str(place / f"grammar-{digest}.lark-tables")


TABLES_LIMIT = 16 << 20     # bytes: Lark's tables for our grammar are well under a megabyte


@functools.cache
def lark_parser() -> Lark:
    # cached LALR tables: start-up drops from about 0.3 s to a few milliseconds. Lark's cache is a
    # pickle: one whose seal (cache.py) does not hold is removed before Lark could load it
    text = grammar_text()
    tables = _cache_file(text)
    fresh = tables is not None and not cache.check_sealed_file(Path(tables), TABLES_LIMIT)
    parser = Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                  postlex=_WholeWords(), _plugins={"ContextualLexer": _KeywordLexer},
                  cache=tables or False)
    if fresh:                  # Lark has just written them (none was there, or it was removed)
        cache.seal_file(Path(tables), TABLES_LIMIT)
    return parser


def _expected_words(parser: Lark, expected) -> list[str]:
    words = []
    for name in sorted(expected):
        if name == "$END":
            words.append("the end of the file")
            continue
        try:
            term = parser.get_terminal(name)
        except KeyError:
            continue
        if term.pattern.type == "str":
            words.append(f"`{term.pattern.value}`")
        else:
            words.append({"NAME": "a name", "INT": "a whole number", "DECIMAL": "a number",
                          "STRING": "a quoted text", "COMPARE": "a comparison",
                          "ADD": "`+` or `-`", "MUL": "`*`, `/` or `%`"}.get(name, name.lower()))
    return words


def _syntax_diagnostic(err: UnexpectedInput, text: str, file: str) -> Diagnostic:
    parser = lark_parser()
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = text.splitlines() or [""]
        line = len(lines)
        col = len(lines[-1]) + 1
        opened = _unclosed_brace(text)
        expected = _expected_words(parser, getattr(err, "expected", ()) or ())
        if opened is not None:
            ol, oc = opened
            return Diagnostic("U0102", f"unclosed `{{` opened at {ol}:{oc}", file, Span(ol, oc, ol, oc + 1),
                              "this `{` is never closed", "add its `}` where the block ends",
                              notes=[f"the file ends at {line}:{col} inside this block"])
        return Diagnostic("U0102", "the file ends too early", file, Span(line, col, line, col + 1),
                          "the file ends here", "expected " + _or(expected) if expected else None)
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        return Diagnostic("U0101", f"unexpected character `{ch}`", file,
                          Span(err.line, err.column, err.line, err.column + 1), "not part of the language",
                          "names are lower-case letters, digits and `_`; text goes in double quotes; "
                          "`#` starts a comment")
    tok = err.token
    accepts = err.expected
    ip = getattr(err, "interactive_parser", None)
    if ip is not None:
        try:
            accepts = ip.accepts()         # the parser's own set (the lexer's may fold keywords into NAME)
        except Exception:                  # noqa: BLE001 - fall back to what the error carries
            pass
    expected = _expected_words(parser, accepts)
    span = Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))
    word = str(tok)
    msg = f"unexpected `{word}`"
    help_ = "expected " + _or(expected[:12]) if expected else None
    keywords = [w.strip("`") for w in expected if w.startswith("`")]
    close = did_you_mean(word, keywords) if tok.type == "NAME" else None
    if close:
        help_ = close
    if word == "}" and "{" not in text[: tok.start_pos]:
        help_ = "this `}` closes nothing"
    first = not text[: tok.start_pos].rsplit("\n", 1)[-1].strip()
    meant = probable(text, tok.line, first)
    if meant is not None:                  # a phrasing people write: what it probably meant, where it is
        where, said, hint = meant
        return Diagnostic("U0101", said, file, where, "not how the language says it", hint,
                          notes=[f"the parser stopped at {tok.line}:{tok.column}: unexpected `{word}`"])
    return Diagnostic("U0101", msg, file, span, "not expected here", help_)


def _unclosed_brace(text: str):
    """(line, column) of the innermost `{` that no `}` closes, outside text and comments; or None."""
    stack, line, col, quoted, comment = [], 1, 0, False, False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, quoted, comment = line + 1, 0, False, False
        elif comment:
            continue
        elif ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == "#":
            comment = True
        elif ch == "{":
            stack.append((line, col))
        elif ch == "}" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _or(words):
    words = list(dict.fromkeys(words))
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _check_depth(tree, file, text):
    """Refuse a parse tree deeper than MAX_DEPTH (the IR is built recursively), pointing at the
    first node past the limit. Walked without recursion."""
    from lark import Tree
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = getattr(node, "meta", None)
            span = _span_meta(meta) if meta is not None else None
            raise RulebookError([Diagnostic("U0003", f"an expression or rule is nested more than {MAX_DEPTH} deep",
                                            file, span and Span(span.line, span.column, span.line, span.column + 1),
                                            "too deep", "break it into several rules, or simplify it")], {file: text})
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _check_nesting(text: str, file: str):
    depth = 0
    line = 1
    col = 0
    for ch in text:
        col += 1
        if ch == "\n":
            line += 1; col = 0
        elif ch in "{(":
            depth += 1
            if depth > MAX_NESTING:
                raise RulebookError([Diagnostic(
                    "U0003", f"blocks are nested more than {MAX_NESTING} deep", file,
                    Span(line, col, line, col + 1), "too deep", "flatten the rule into several actions")],
                    {file: text})
        elif ch in "})":
            depth = max(0, depth - 1)


def _keyword_as_name(err) -> bool:
    """A word lexed as a keyword where the parser wants a name is read as the name. (LALR shares
    states between contexts, so a word can be a keyword in the lookahead of a state that, here,
    takes a name: `attacker draw 1 target draw 2`, where `target` is also a scoring keyword.)"""
    if not isinstance(err, UnexpectedToken) or err.token.type in ("NAME", "$END"):
        return False
    word = str(err.token)
    ip = err.interactive_parser
    if not NAME_WORD.fullmatch(word) or "NAME" not in ip.accepts():
        return False
    ip.feed_token(Token.new_borrow_pos("NAME", word, err.token))
    return True


NAME_WORD = re.compile(r"[a-z_][a-z0-9_]*")


def parse_uno(text: str, file: str = "<input>") -> tuple[dict, Spans, list[Diagnostic]]:
    """Parse rule-language text into (IR, spans, problems).

    Raises RulebookError on syntax errors; returns the problems found while building the IR
    (a setting given twice, an empty range) for the caller to report with the checker's."""
    _check_nesting(text, file)
    errors: list[UnexpectedInput] = []

    try:
        tree = lark_parser().parse(text, on_error=_keyword_as_name)
    except UnexpectedInput as e:
        if not errors or errors[-1] is not e:
            errors.append(e)
        tree = None
    except RecursionError:
        raise RulebookError([Diagnostic("U0003", "the file is nested too deeply to read", file)], {file: text})
    if errors:
        # the first syntax error only: after it an LALR parser's later complaints are mostly echoes
        raise RulebookError([_syntax_diagnostic(errors[0], text, file)], {file: text})
    _check_depth(tree, file, text)
    spans = Spans()
    to_ir = ToIR(spans, file)
    try:
        ir = to_ir.transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RulebookError):
            raise RulebookError(e.orig_exc.diagnostics, {file: text}) from None
        raise
    except RecursionError:
        raise RulebookError([Diagnostic("U0003", "the file is nested too deeply to read", file)], {file: text})
    return ir, spans, to_ir.problems
