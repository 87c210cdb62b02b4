"""What the language server knows of a file, without the protocol (unorules/lsp/ but server.py):
tokens, declarations, completion, hover, quick fixes and formatting, on every shipped file.
tests/test_lsp_server.py drives the same through a real client over stdio."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT
from unorules.errors import RulebookError
from unorules.language.explain.rulebook import explain
from unorules.language.loader import load, parse_file
from unorules.lsp import completion as C
from unorules.lsp import features as F
from unorules.lsp.symbols import read_symbols
from unorules.lsp.tokens import tokens
from unorules.lsp.workspace import Workspace

SHIPPED = sorted((ROOT / "rulebooks").rglob("*.uno"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_tokens_cover_every_character_but_space(path):
    """Every character of the file is in exactly one token, but white space."""
    text = path.read_text("utf-8")
    lines = text.split("\n")
    covered = [[False] * len(line) for line in lines]
    for t in tokens(text):
        for k, part in enumerate(t.text.split("\n")):          # `play only` may span lines
            start = t.column if k == 0 else 0
            for i, ch in enumerate(part):
                assert not covered[t.line + k][start + i], (t, "overlaps another token")
                assert lines[t.line + k][start + i] == ch, t
                covered[t.line + k][start + i] = True
    for n, line in enumerate(lines):
        for c, ch in enumerate(line):                       # `;` separates, and the parser skips it
            assert covered[n][c] or ch.isspace() or ch == ";", (path.name, n + 1, c + 1, line)


def _own_names(path: Path) -> set[tuple[str, str, int]]:
    """(name, kind, line) of what a file's own IR declares, as its spans place it."""
    parsed = parse_file(path)
    ir, spans = parsed.ir, parsed.spans
    out = set()
    for card in ir.get("cards", []):
        for i, name in enumerate(card["names"]):
            if not name.isdigit():
                out.add((name, "card", spans.at(card["names"], i).line))
    for c in ir.get("counters", []):
        out.add((c["name"], c["kind"], spans.at(c, "name").line))
    for key, kind in (("options", "option"), ("rules", "rule"), ("declarations", "call")):
        for o in ir.get(key, []):
            out.add((o["name"], kind, spans.at(o, "name").line))
    for key in ("triggers", "reactions"):
        for o in ir.get(key, []):
            if "name" in o:
                out.add((o["name"], key[:-1], spans.at(o, "name").line))
    return out


@pytest.mark.parametrize("path", SHIPPED + sorted((ROOT / "tests" / "data").glob("*.uno")), ids=lambda p: p.stem)
def test_declarations_are_the_irs(path):
    """The outline's declarations, read from tokens, are the ones the IR has, on the same lines."""
    try:
        expected = _own_names(path)
    except RulebookError:
        pytest.skip("a file with syntax errors has no IR to compare with")
    kinds = {"card", "counter", "flag", "option", "rule", "trigger", "reaction", "call"}
    found = {(s.name, s.kind, s.token.line + 1) for s in read_symbols(path.read_text("utf-8")).symbols
             if s.kind in kinds}
    assert found == expected


def _word_starts(text):
    return [t for t in tokens(text) if t.type == "NAME" or t.keyword]


@pytest.mark.parametrize("name", ["official", "fast", "flex", "attack", "red_lock", "stacking"])
def test_completion_offers_what_is_written_and_nothing_the_parser_refuses(name):
    """At the start of every word of a shipped file, the word written there is offered (a keyword,
    or a name the rulebook gives), and every keyword offered is one the parser takes there."""
    path = next(p for p in SHIPPED if p.stem == name)
    text = path.read_text("utf-8")
    ws = Workspace()
    ws.open(path, text)
    ws.check(path)
    names = F.names_of(ws, path)
    lines = text.split("\n")
    checked = 0
    toks = [t for t in tokens(text) if t.type != "COMMENT"]
    for t in _word_starts(text):
        i = toks.index(t)
        if "\n" in t.text or (i and toks[i - 1].type in C.NEW_NAME_AFTER):
            continue
        offered = C.completions(ws, path, t.line, t.column)
        labels = {c.label for c in offered}
        word = t.text
        if t.keyword or word in names:
            assert word.split()[0] in labels or word in labels, (name, t)
            checked += 1
        offset = sum(len(x) + 1 for x in lines[:t.line]) + t.column
        for c in offered:
            if c.kind == "keyword":
                assert C.accepted(text[:offset] + c.label + " ") is not None, (name, t, c.label)
    assert checked > 20


def test_completion_by_place():
    ws = Workspace()
    path = ROOT / "rulebooks" / "fast.uno"
    text = "rulebook mine\nextends fast\ninclude st\non turn_start: set \n"
    ws.open(Path("/nonexistent/mine.uno"), text)
    mine = Path("/nonexistent/mine.uno")
    ws.check(mine)

    def at(line, col):
        return {c.label: c.kind for c in C.completions(ws, mine, line, col)}
    assert at(1, 8)["fast"] == "rulebook" and "stacking" not in at(1, 8)
    assert at(2, 10) == {"stacking": "module"}
    assert "bet" in at(3, 19) and at(3, 19)["bet"] == "counter" and "wild" not in at(3, 19)
    assert "turn_start" in at(3, 3) and "round_end" in at(3, 3)
    assert path.exists()


def test_completion_of_declared_values():
    """An option shows its declared value; after `NAME ==`, a choice's answers are offered as texts."""
    mine = Path("/nonexistent/choice.uno")
    ws = Workspace()
    ws.open(mine, 'rulebook choice\nextends fast\non turn_start if cut_ch\n')
    (option,) = C.completions(ws, mine, 2, 22)
    assert option.label == "cut_chance" and option.detail.startswith("option cut_chance = 0.0667")
    ws.open(mine, 'rulebook choice\nextends fast\non turn_start:\n  choose one of missed, exact as g\n  if g == "ex')
    assert [c.label for c in C.completions(ws, mine, 4, 13)] == ['"exact"']
    assert {'"missed"', '"exact"'} <= {c.label for c in C.completions(ws, mine, 4, 10)}


def test_hover_on_a_card_is_explain_card():
    path = ROOT / "rulebooks" / "official.uno"
    ws = Workspace()
    ws.open(path, path.read_text("utf-8"))
    ws.check(path)
    rb = load(path)
    for s in read_symbols(path.read_text("utf-8")).symbols:
        if s.kind == "card":
            text, tok = F.hover(ws, path, s.token.line, s.token.column + 1)
            assert text == explain(rb, s.name) and tok == s.token


def test_hover_on_a_counter_and_a_keyword():
    path = ROOT / "rulebooks" / "fast.uno"
    text = path.read_text("utf-8")
    ws = Workspace()
    ws.open(path, text)
    ws.check(path)
    use = next(t for t in tokens(text) if t.text == "bet" and t.type == "NAME" and t.line > 20)
    said, _ = F.hover(ws, path, use.line, use.column)
    assert "**counter** `bet`" in said and "for each player" in said and "fast.uno:9" in said
    kw = next(t for t in tokens(text) if t.type == "ATTACK")          # in `cancel attack`
    said, _ = F.hover(ws, path, kw.line, kw.column)
    assert said.startswith("```uno\ncancel attack\n```") and "drop the attack" in said
    event = next(t for t in tokens(text) if t.text == "cut" and t.type == "NAME")       # `on cut as bets`
    said, _ = F.hover(ws, path, event.line, event.column)
    assert said.startswith("`cut`: an event") and "on EVENT [of [COLOR] FACE]" in said
    classic = ROOT / "rulebooks" / "classic.uno"
    text = classic.read_text("utf-8")
    ws.open(classic, text)
    kw = next(t for t in tokens(text) if t.type == "ATTACK")          # `attack next penalty 2 { ... }`
    said, _ = F.hover(ws, classic, kw.line, kw.column + 2)
    assert said.startswith("```uno\nattack P [penalty N] { ACTIONS }")


def test_quick_fixes_make_a_file_that_validates(tmp_path):
    f = tmp_path / "typos.uno"
    f.write_text("rulebook typos\nextends classic\ncard wild { on play: set color gren }\n"
                 "react to draw_two with draw_too: add 2; pass attack to next\n"
                 "on play of skp: nxt draw 1\n")
    ws = Workspace()
    for _ in range(6):
        ws.open(f, f.read_text())
        problems = [d for ds in ws.check(f).diagnostics.values() for d in ds]
        if not problems:
            break
        fixable = [d for d in problems if F.quick_fix(d)]
        assert fixable, [d.message for d in problems]
        d = fixable[0]
        lines = f.read_text().split("\n")
        s = d.span
        row = lines[s.line - 1]
        lines[s.line - 1] = row[:s.column - 1] + F.quick_fix(d) + row[s.end_column - 1:]
        f.write_text("\n".join(lines))
    load(f)                                   # validates
    assert "green" in f.read_text() and "next draw 1" in f.read_text() and "of skip" in f.read_text()


@pytest.mark.parametrize("path", SHIPPED[:12], ids=lambda p: p.stem)
def test_formatting_is_fmt(path, tmp_path):
    from unorules.language.writer import formatted
    ws = Workspace()
    messy = re.sub(r"\n", "\n\n", path.read_text("utf-8"), count=3)
    ws.open(path, messy)
    assert F.formatted(ws, path) == formatted(parse_file(path, text=messy))


def test_formatting_refuses_where_fmt_does(tmp_path):
    f = tmp_path / "r.yaml"
    f.write_text("# a comment\nkind: rulebook\nname: r\nextends:   classic\n")
    ws = Workspace()
    ws.open(f, f.read_text())
    with pytest.raises(RulebookError, match="comments"):
        F.formatted(ws, f)


def test_an_edit_to_a_module_rechecks_the_files_that_use_it(tmp_path):
    mod = tmp_path / "mod.uno"
    mine = tmp_path / "mine.uno"
    other = tmp_path / "other.uno"
    mod.write_text("module mod\nfor classic\ncounter hits\n")
    mine.write_text("rulebook mine\nextends classic\ninclude mod\non play: add 1 to hits\n")
    other.write_text("rulebook other\nextends classic\n")
    ws = Workspace()
    for f in (mod, mine, other):
        ws.open(f, f.read_text())
        ws.check(f)
    assert ws.dependents(mod) == [mine]
    refs = F.references(ws, mine, 2, 9)             # `include mod`: where the file is laid, in every open file
    assert [(r.path, r.line) for r in refs] == [(mine, 2)]
    classic_refs = {(r.path.name, r.line) for r in F.references(ws, mine, 1, 9)}
    assert {("mine.uno", 1), ("other.uno", 1), ("mod.uno", 1)} <= classic_refs
    ws.open(mod, "module mod\nfor classic\ncounter hit\n")       # unsaved: the buffer is read
    problems = ws.check(mine).diagnostics
    assert [d.code for d in problems[mine]] == ["U0201"]
    ws.open(mod, "module mod\nfor classic\non play of skp: draw 1\ncounter hits\n")
    problems = ws.check(mine).diagnostics
    (d,) = problems[mod]
    assert d.code == "U0204" and d.related[-1][2] == "checked as part of `mod`, which this file includes"
    assert d.related[-1][1].line == 3


def test_the_command_without_the_extra_says_what_to_install():
    import subprocess
    import sys
    code = ("import sys; sys.modules['pygls'] = None; sys.argv = ['unorules', 'lsp']; "
            "from unorules.cli import main; main()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "unorules[lsp]" in out.stderr and "Traceback" not in out.stderr


def test_a_stale_check_is_not_kept(tmp_path):
    from unorules.lsp.workspace import Workspace
    path = tmp_path / "card.uno"
    path.write_text("rulebook card\nextends classic\n")
    files = Workspace()
    files.open(path, "rulebook card\nextends classic\n")
    check = files.compute(path, dict(files.buffers))
    assert files.is_current(check)
    files.open(path, "rulebook card\nextends official\n")         # edited while it was checked
    assert not files.is_current(check)


def test_a_refusal_is_logged_in_one_line_without_a_traceback(caplog):
    import logging
    import os
    if not os.environ.get("UNORULES_REQUIRE_EXTRAS"):
        pytest.importorskip("pygls")
    from pygls.exceptions import JsonRpcException
    import unorules.lsp.server  # noqa: F401 - installs the filter
    logger = logging.getLogger("pygls.protocol.json_rpc")
    with caplog.at_level(logging.INFO, logger="pygls.protocol.json_rpc"):
        try:
            raise JsonRpcException("`x` cannot be renamed: it is a word of the language", -32803)
        except JsonRpcException:
            logger.exception('Exception occurred for message "%s"', 7)
        try:
            raise RuntimeError("a real failure")
        except RuntimeError:
            logger.exception("failed")
    refused, failed = caplog.records
    assert refused.getMessage() == "refused: `x` cannot be renamed: it is a word of the language"
    assert refused.exc_info is None and refused.levelno == logging.INFO
    assert failed.exc_info is not None                   # a real failure keeps its traceback
