"""`unorules lsp` end to end: a real LSP client (pytest-lsp) over stdio against the server, for
every feature of docs/editors.md, on shipped rulebooks and on files with errors; and a fuzz of
random edits after which the server still answers every request."""
from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

if not os.environ.get("UNORULES_REQUIRE_EXTRAS"):
    pytest.importorskip("pygls")
    pytest.importorskip("pytest_lsp")

import pytest_lsp                                            # noqa: E402
from lsprotocol import types as lsp                          # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient    # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "unorules", "lsp"])


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient):
    capabilities = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            hover=lsp.HoverClientCapabilities(content_format=[lsp.MarkupKind.Markdown])))
    lsp_client.initialized = await lsp_client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
    yield
    await lsp_client.shutdown_session()


def doc(uri):
    return lsp.TextDocumentIdentifier(uri)


async def open_file(client, path: Path, text: str | None = None, version: int = 1):
    """Open a file and wait for its diagnostics (the server publishes them once checked)."""
    text = path.read_text("utf-8") if text is None else text
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri, "unorules", version, text)))
    await wait_for(client, uri)
    return uri


async def wait_for(client, uri, until=lambda ds: True, timeout=20.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if uri in client.diagnostics and until(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {uri}: {client.diagnostics.get(uri)}")


async def change(client, uri, text, version):
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [lsp.TextDocumentContentChangeWholeDocument(text)]))


def close(client, uri):
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(doc(uri)))


def validate_json(path: Path) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "unorules", "validate", str(path), "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT)
    return [d for r in json.loads(out.stdout)["results"] for d in r["diagnostics"]]


def as_cli(d: lsp.Diagnostic) -> tuple:
    return (d.code, d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1,
            d.range.end.character + 1, d.message.split("\nhelp: ")[0].split("\nnote: ")[0])


def from_cli(d: dict) -> tuple:
    return (d["code"], d["line"], d["column"], d["end_line"], d["end_column"], d["message"])


# ---- diagnostics ---------------------------------------------------------------------------------

async def test_diagnostics_are_validates(client, tmp_path):
    f = tmp_path / "twelve_errors.uno"
    shutil.copy(ROOT / "tests" / "data" / "twelve_errors.uno", f)
    uri = await open_file(client, f)
    got = sorted(as_cli(d) for d in client.diagnostics[uri])
    want = sorted(from_cli(d) for d in validate_json(f) if d["file"] == str(f))
    assert got == want and len(got) == 12
    sise = next(d for d in client.diagnostics[uri] if "sise" in d.message)
    assert sise.code == "U0302" and sise.severity == lsp.DiagnosticSeverity.Error
    assert sise.code_description.href.endswith("language.md#u0302")
    dup = next(d for d in client.diagnostics[uri] if "declared twice" in d.message)
    (rel,) = dup.related_information
    assert rel.location.uri == uri and rel.location.range.start.line == 5 and rel.message == "first declared here"
    close(client, uri)


@pytest.mark.parametrize("name", ["official", "fast", "flip", "classic"])
async def test_a_shipped_rulebook_has_no_diagnostics(client, name):
    uri = await open_file(client, ROOT / "rulebooks" / f"{name}.uno")
    assert not client.diagnostics[uri]
    close(client, uri)


async def test_yaml_and_json_rulebooks(client, tmp_path):
    y = tmp_path / "r.yaml"
    y.write_text("kind: rulebook\nname: r\nextends: classic\nsetup:\n  hand: 7\nturn:\n  cap_turns: 3\n")
    uri = await open_file(client, y)
    got = sorted(as_cli(d) for d in client.diagnostics[uri])
    want = sorted(from_cli(d) for d in validate_json(y))
    assert got == want and got
    j = tmp_path / "r.json"
    j.write_text(json.dumps({"kind": "rulebook", "name": "r", "extends": "classic"}))
    uri2 = await open_file(client, j)
    assert not client.diagnostics[uri2]
    s = tmp_path / "scenario.yaml"            # not a rulebook: left alone
    s.write_text("rulebook: official\nscenarios: []\n")
    uri3 = await open_file(client, s)
    assert not client.diagnostics[uri3]
    for u in (uri, uri2, uri3):
        close(client, u)


async def test_diagnostics_follow_edits_and_modules(client, tmp_path):
    mod = tmp_path / "mod.uno"
    mine = tmp_path / "mine.uno"
    mod.write_text("module mod\nfor classic\ncounter hits\non turn_start if hits > 3: draw 1\n")
    mine.write_text("rulebook mine\nextends classic\ninclude mod\non play: add 1 to hits\n")
    mine_uri = await open_file(client, mine)
    mod_uri = await open_file(client, mod)
    assert not client.diagnostics[mine_uri] and not client.diagnostics[mod_uri]
    client.diagnostics.pop(mine_uri, None)
    await change(client, mod_uri, "module mod\nfor classic\ncounter hit\non turn_start if hit > 3: draw 1\n", 2)
    ds = await wait_for(client, mine_uri, lambda ds: len(ds) == 1)
    assert ds[0].code == "U0201" and "hits" in ds[0].message and ds[0].range.start.line == 3
    await change(client, mod_uri, mod.read_text(), 3)
    assert await wait_for(client, mine_uri, lambda ds: not ds) == ()
    # an error in the module, seen from the file that includes it: located in the module, linked back
    await change(client, mine_uri, "rulebook mine\nextends classic\ninclude mod\non play: add 1 to hits\n"
                                   "on play of skp: draw 1\n", 2)
    ds = await wait_for(client, mine_uri, lambda ds: len(ds) == 1)
    assert ds[0].code == "U0204" and ds[0].data == {"fix": "skip"}
    close(client, mine_uri)
    close(client, mod_uri)
    # a module that is not open, changed on disk: the editor says so, and the files using it are checked
    mine_uri = await open_file(client, mine)
    assert not client.diagnostics[mine_uri]
    mod.write_text("module mod\nfor classic\ncounter hit\non turn_start if hit > 3: draw 1\n")
    client.diagnostics.pop(mine_uri, None)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(
        [lsp.FileEvent(mod.as_uri(), lsp.FileChangeType.Changed)]))
    ds = await wait_for(client, mine_uri, lambda ds: len(ds) == 1)
    assert ds[0].code == "U0201" and "hits" in ds[0].message
    close(client, mine_uri)


# ---- quick fixes ---------------------------------------------------------------------------------

def apply(text: str, edit: lsp.TextEdit) -> str:
    lines = text.split("\n")
    s, e = edit.range.start, edit.range.end
    before = "\n".join(lines[:s.line] + [lines[s.line][:s.character]])
    after = "\n".join([lines[e.line][e.character:]] + lines[e.line + 1:])
    return before + edit.new_text + after


async def test_quick_fixes_give_a_file_that_validates(client, tmp_path):
    f = tmp_path / "typos.uno"
    text = ("rulebook typos\nextends classic\ncard wild { on play: set color gren }\n"
            "react to draw_two with draw_too: add 2; pass attack to next\non play of skp: nxt draw 1\n")
    f.write_text(text)
    uri = await open_file(client, f)
    version = 1
    for _ in range(8):
        ds = client.diagnostics[uri]
        if not ds:
            break
        actions = await client.text_document_code_action_async(lsp.CodeActionParams(
            doc(uri), ds[0].range, lsp.CodeActionContext(list(ds))))
        assert actions, [d.message for d in ds]
        (edit,) = actions[0].edit.changes[uri]
        text = apply(text, edit)
        version += 1
        await change(client, uri, text, version)
        await wait_for(client, uri)
    f.write_text(text)
    assert validate_json(f) == [] and not client.diagnostics[uri]
    assert "color green" in text and "with draw_two" in text and "of skip: next draw 1" in text
    close(client, uri)


# ---- hover, definition, references, outline ------------------------------------------------------

async def test_hover_on_a_card_is_explain_card(client):
    path = ROOT / "rulebooks" / "official.uno"
    uri = await open_file(client, path)
    lines = path.read_text().split("\n")
    for name in ("wild_shuffle_hands", "wild_customizable"):
        line = next(i for i, ln in enumerate(lines) if ln.startswith(f"card {name}"))
        hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(line, 8)))
        cli = subprocess.run([sys.executable, "-m", "unorules", "explain", "official", "--card", name],
                             capture_output=True, text=True, cwd=ROOT).stdout
        assert hover.contents.value == cli
    kw = next(i for i, ln in enumerate(lines) if ln.startswith("deck"))      # a keyword: its reference entry
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(kw, 1)))
    assert hover.contents.value.startswith("```uno\ndeck [side NAME] { ... }")
    close(client, uri)
    fast = ROOT / "rulebooks" / "fast.uno"
    uri = await open_file(client, fast)
    lines = fast.read_text().split("\n")
    for start, name, what, said in (("on cut as bets", "bets", "trigger", "Before the dealer's cut"),
                                    ("option cut_chance", "cut_chance", "option", "0.0667"),
                                    ("counter bet", "bet", "counter", "cleared at the start of every round")):
        line = next(i for i, ln in enumerate(lines) if ln.startswith(start))
        col = lines[line].index(name, len(start) - len(name))
        hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(line, col + 1)))
        text = hover.contents.value
        assert text.startswith(f"**{what}** `{name}`") and said in text and f"fast.uno:{line + 1}" in text
    close(client, uri)


async def test_definition_and_references_across_files(client, tmp_path):
    mine = tmp_path / "mine.uno"
    text = ("rulebook mine\nextends fast\ninclude stacking\n"
            "on play of skip if stack_limit > me.bet: draw 1\ncard skip { on play: set bet to 1 }\n")
    mine.write_text(text)
    uri = await open_file(client, mine)
    assert not client.diagnostics[uri]

    async def defn(line, col):
        return await client.text_document_definition_async(lsp.DefinitionParams(doc(uri), lsp.Position(line, col)))
    (skip,) = await defn(3, 12)
    classic = (ROOT / "rulebooks" / "classic.uno").read_text().split("\n")
    assert Path(skip.uri.removeprefix("file://")).name == "classic.uno"
    assert classic[skip.range.start.line][skip.range.start.character:skip.range.end.character] == "skip"
    assert classic[skip.range.start.line].startswith("card skip")
    (limit,) = await defn(3, 22)
    stacking = (ROOT / "rulebooks" / "modules" / "stacking.uno").read_text().split("\n")
    assert stacking[limit.range.start.line].startswith("option stack_limit")
    (bet,) = await defn(3, 37)
    fast = (ROOT / "rulebooks" / "fast.uno").read_text().split("\n")
    assert fast[bet.range.start.line].startswith("counter bet")
    (module,) = await defn(2, 10)
    assert module.uri.endswith("modules/stacking.uno") and module.range.start.line == 0
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc(uri), position=lsp.Position(3, 37), context=lsp.ReferenceContext(include_declaration=True)))
    places = {(Path(r.uri.removeprefix("file://")).name, r.range.start.line) for r in refs}
    assert ("mine.uno", 3) in places and ("mine.uno", 4) in places
    assert ("fast.uno", bet.range.start.line) in places and len([p for p in places if p[0] == "fast.uno"]) >= 3
    close(client, uri)


async def test_outline(client):
    path = ROOT / "rulebooks" / "fast.uno"
    uri = await open_file(client, path)
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri)))
    names = [s.name for s in symbols]
    assert "counter bet per player reset each round" in names
    assert any(n.startswith("on cut as bets") for n in names) and "setup" in names
    lines = path.read_text().split("\n")
    for s in symbols:
        assert s.range.start.line <= s.selection_range.start.line <= s.range.end.line
        first = lines[s.range.start.line][s.range.start.character:]
        assert s.name.split()[0] in first or first.startswith(s.name.split()[0])
    close(client, uri)


# ---- completion ----------------------------------------------------------------------------------

async def test_completion(client, tmp_path):
    mine = tmp_path / "mine.uno"
    text = "rulebook mine\nextends fast\ninclude sta\non turn_start: set \non play: next \non round_end: draw 1\n\n"
    mine.write_text(text)
    uri = await open_file(client, mine)

    async def at(line, col):
        got = await client.text_document_completion_async(lsp.CompletionParams(doc(uri), lsp.Position(line, col)))
        return {i.label: i.kind for i in got.items}
    assert (await at(2, 11)) == {"stacking": lsp.CompletionItemKind.Module}
    after_set = await at(3, 19)
    assert after_set["bet"] == lsp.CompletionItemKind.Variable and "color" in after_set and "skip" not in after_set
    after_next = await at(4, 14)
    assert {"draw", "lose", "choose", "attack"} <= set(after_next) and "scoring" not in after_next
    after_item = await at(6, 0)      # a new item, or another action of the trigger
    assert {"card", "counter", "on", "scoring", "turn", "play only", "draw", "if"} <= set(after_item)
    assert "points" not in after_item and "per" not in after_item and "hand" not in after_item
    close(client, uri)


# ---- formatting and highlighting -----------------------------------------------------------------

async def test_formatting_is_fmt_and_refuses_where_fmt_does(client, tmp_path):
    f = tmp_path / "messy.uno"
    f.write_text("rulebook messy\n\n\nextends   classic\ncard wild {on play:   choose color}   # kept\n")
    uri = await open_file(client, f)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        doc(uri), lsp.FormattingOptions(2, True)))
    (edit,) = edits
    cli = subprocess.run([sys.executable, "-m", "unorules", "fmt", str(f)], capture_output=True, text=True).stdout
    assert apply(f.read_text(), edit) == cli and "# kept" in cli
    close(client, uri)
    y = tmp_path / "c.yaml"
    y.write_text("# a comment\nkind: rulebook\nname: c\nextends:    classic\n")
    uri = await open_file(client, y)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        doc(uri), lsp.FormattingOptions(2, True)))
    assert edits is None
    await asyncio.sleep(0.1)
    assert any("fmt leaves this file as it is" in m.message for m in client.messages)
    close(client, uri)


async def test_semantic_tokens(client):
    path = ROOT / "rulebooks" / "fast.uno"
    uri = await open_file(client, path)
    got = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(doc(uri)))
    legend = client.initialized.capabilities.semantic_tokens_provider.legend.token_types
    lines = path.read_text().split("\n")
    line = col = 0
    seen = {}
    data = got.data
    for i in range(0, len(data), 5):
        dl, dc, length, kind, _ = data[i:i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        seen.setdefault(lines[line][col:col + length], set()).add(legend[kind])
    assert seen["counter"] == {"keyword"} and seen["bet"] == {"variable"} and seen["seven_defence"] == {"function"}
    assert seen["cut_chance"] == {"parameter"} and seen["killer"] == {"namespace"}
    assert any(k.startswith("#") and v == {"comment"} for k, v in seen.items())
    close(client, uri)


# ---- bad input never kills the server ------------------------------------------------------------

HOSTILE = [ROOT / "tests" / "data" / "twelve_errors.uno"] + sorted((ROOT / "tests" / "fuzz_corpus").glob("*.uno"))


def hostile_texts() -> list[str]:
    """The suite's hostile files and rule texts, and text past every bound of the loader."""
    from test_hostile_input import UNO_CASES
    return ([p.read_text() for p in HOSTILE] + [case[0] for case in UNO_CASES.values()]
            + ["x" * 25_000, "{" * 3000, "#" + "x" * 1_100_000 + "\n"])


async def test_fuzzed_edits_are_always_answered(client, tmp_path):
    rng = random.Random(7)
    f = tmp_path / "fuzz.uno"
    base = (ROOT / "rulebooks" / "fast.uno").read_text()
    f.write_text(base)
    uri = await open_file(client, f)
    version = 1
    lines = base.split("\n")          # edits land anywhere, past the end of the text too
    pieces = ["{", "}", ":", "on play:", "card", "\ud800", "é", "\x00", "×", "9" * 400, "draw " * 3000, "🃏", "🃏x🃏",
              "\n" * 50, '"', "#", "if", "..", "react to", "\t"] + hostile_texts()
    for step in range(60):
        version += 1
        line = rng.randrange(len(lines) + 3)
        col = rng.randrange(0, 200)
        new = rng.choice(pieces)
        end_line = min(line + rng.randrange(3), len(lines) + 5)
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(line, col), lsp.Position(end_line, col)),
                                                  new)]))
        pos = lsp.Position(rng.randrange(60), rng.randrange(80))
        for request in (client.text_document_hover_async(lsp.HoverParams(doc(uri), pos)),
                        client.text_document_completion_async(lsp.CompletionParams(doc(uri), pos)),
                        client.text_document_document_symbol_async(lsp.DocumentSymbolParams(doc(uri))),
                        client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(doc(uri))),
                        client.text_document_definition_async(lsp.DefinitionParams(doc(uri), pos))):
            await asyncio.wait_for(request, 20)              # answered (a result or an empty one), never hung
        if step % 10 == 9:                                   # start again from a whole file now and then
            version += 1
            client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [lsp.TextDocumentContentChangeWholeDocument(base)]))
    client.diagnostics.pop(uri, None)
    version += 1
    await change(client, uri, base, version)
    assert not await wait_for(client, uri)                 # and it still checks
    close(client, uri)


async def test_places_count_utf16_code_units(client, tmp_path):
    """A character beyond the BMP is two UTF-16 units: places after it are where the editor sees them."""
    f = tmp_path / "astral.uno"
    text = ('rulebook astral\nextends classic\noption o = "🃏🃏" counter hits\non play: add 1 to hits\n'
            'on turn_start if hits > 2 and o != "x": draw 1\n')
    f.write_text(text)
    uri = await open_file(client, f)
    assert not client.diagnostics[uri]
    (hits,) = await client.text_document_definition_async(lsp.DefinitionParams(doc(uri), lsp.Position(3, 19)))
    declared = 'option o = "🃏🃏" counter '
    units = len(declared.encode("utf-16-le")) // 2
    assert units == len(declared) + 2
    assert (hits.range.start.line, hits.range.start.character, hits.range.end.character) == (2, units, units + 4)
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(2, units + 1)))
    assert hover.contents.value.startswith("**counter** `hits`")
    close(client, uri)


async def test_rename_across_the_authors_files_and_never_in_shipped_ones(client, tmp_path):
    mod, mine = tmp_path / "mod.uno", tmp_path / "mine.uno"
    mod.write_text("module mod\nfor classic\ncounter hits\non turn_start if hits > 3: draw 1\n")
    mine.write_text("rulebook mine\nextends classic\ninclude mod\non play: add 1 to hits\n")
    uri = await open_file(client, mine)
    assert not client.diagnostics[uri]
    here = lsp.Position(3, 20)                                   # `hits` in `add 1 to hits`
    prepared = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(doc(uri), here))
    assert prepared.placeholder == "hits" and prepared.range.start.character == 18
    edit = await client.text_document_rename_async(lsp.RenameParams(doc(uri), here, "strikes"))
    by_file = {Path(u.removeprefix("file://")).name: edits for u, edits in edit.changes.items()}
    assert sorted((name, e.range.start.line) for name, edits in by_file.items() for e in edits) == \
        [("mine.uno", 3), ("mod.uno", 2), ("mod.uno", 3)]
    for path in (mod, mine):
        text = path.read_text()
        for e in sorted(by_file[path.name], key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            text = apply(text, e)
        path.write_text(text)
    assert validate_json(mine) == [] and "counter strikes" in mod.read_text()
    for refused, new, words in ((lsp.Position(1, 9), "x", "only a name"),             # `classic`: a file
                                (here, "draw", "a word of the language"),
                                (here, "skip", "already names a card")):
        with pytest.raises(Exception, match=words):
            await client.text_document_rename_async(lsp.RenameParams(doc(uri), refused, new))
    close(client, uri)
    shipped = tmp_path / "shipped.uno"
    shipped.write_text("rulebook shipped\nextends classic\non play of skip: draw 1\n")
    uri = await open_file(client, shipped)
    with pytest.raises(Exception, match="shipped rulebooks/classic.uno"):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(doc(uri), lsp.Position(2, 12)))
    close(client, uri)


# ---- a check off the event loop (issue 59) ---------------------------------------------------

def slow_rulebook(cards: int) -> str:
    """official with `cards` cards of their own: a file whose check takes seconds."""
    body = "".join(f"card c{i} {{\n  wild\n  points 50\n  on play:\n    choose color\n"
                   f"    if me.hand.size > {i % 7} {{ next draw 1 }} else {{ each other draw 1 }}\n"
                   f"    if sum(each other as p: p.hand.size) > {i % 11} {{ me draw 1 }}\n"
                   "  on turn_up: next choose color\n}\n" for i in range(cards))
    return ('rulebook slow "s"\nextends official\n' + body + "deck {\n"
            + "".join(f"  1 × c{i}\n" for i in range(cards)) + "}\n")


async def test_requests_are_answered_while_a_check_runs(client, tmp_path):
    """A check ran in the event loop: every hover waited for it (11-26 s on a 790 KB file, after
    every edit). Now it runs on its own thread: a hover sent after an edit is answered before
    that edit's check publishes, and the diagnostics published are the last edit's."""
    text = slow_rulebook(780)
    assert len(text) < 200_000                      # checked as it is typed
    path = tmp_path / "slow.uno"
    path.write_text(text)
    uri = await open_file(client, path, text)
    await change(client, uri, text + "# an edit\n", 2)
    await change(client, uri, text + "# another edit\n", 3)      # the first edit's check is stale
    await asyncio.sleep(0.3)                                    # past the debounce: the check runs
    hover = await client.text_document_hover_async(lsp.HoverParams(doc(uri), lsp.Position(2, 6)))
    assert uri not in client.diagnostics, "the hover waited for the check"
    assert hover is not None and "c0" in hover.contents.value
    await wait_for(client, uri, timeout=60)
    close(client, uri)


async def test_a_very_large_file_is_checked_when_saved_not_as_typed(client, tmp_path):
    text = slow_rulebook(900)
    assert len(text) > 200_000
    path = tmp_path / "large.uno"
    path.write_text(text)
    uri = await open_file(client, path, text)
    assert any(d.code == "large" and "checked when opened and saved" in d.message for d in client.diagnostics[uri])
    broken = text.replace("points 50", "points fifty", 1)
    await change(client, uri, broken, 2)
    await asyncio.sleep(1.0)
    assert uri not in client.diagnostics            # no check as it is typed
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(doc(uri)))
    found = await wait_for(client, uri, until=lambda ds: any(d.code != "large" for d in ds), timeout=60)
    assert any(d.severity == lsp.DiagnosticSeverity.Error for d in found)
    close(client, uri)
