"""Editor support without the language server: the TextMate grammar (editors/vscode/syntaxes/),
held to the parser's keywords, tested by vscode-tmgrammar-test on assertion files and on snapshots
of every example of docs/language.md; and the VS Code extension, packaged by vsce.

The npm tools come from editors/vscode (`npm ci` there; .ci/run does it). Without them the npm
tests skip, but not in CI (UNORULES_REQUIRE_EXTRAS)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from unorules.lsp.tokens import keyword_terminals

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = VSCODE / "syntaxes" / "uno.tmLanguage.json"
SNAPSHOTS = ROOT / "tests" / "editors"
REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))


def _patterns(node):
    if isinstance(node, dict):
        for key in ("match", "begin"):
            if key in node:
                yield node[key]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_every_keyword_of_the_grammar_is_colored():
    grammar = json.loads(GRAMMAR.read_text("utf-8"))
    keyword_rules = [grammar["repository"][k]["match"] for k in ("keyword", "storage", "control", "constant", "phrase")]
    keyword_rules.append(grammar["repository"]["link"]["begin"])
    for word in sorted(set(keyword_terminals().values())):
        assert any(re.fullmatch(rule, word) or re.match(rule, f"{word} x") for rule in keyword_rules), word
    for pattern in _patterns(grammar):            # every pattern compiles (Python's re reads these as Oniguruma does)
        re.compile(pattern)


def test_the_extension_names_the_grammar():
    package = json.loads((VSCODE / "package.json").read_text("utf-8"))
    (language,) = package["contributes"]["languages"]
    (grammar,) = package["contributes"]["grammars"]
    assert language["extensions"] == [".uno"] and grammar["language"] == language["id"]
    assert (VSCODE / grammar["path"]).resolve() == GRAMMAR.resolve()
    assert json.loads(GRAMMAR.read_text("utf-8"))["scopeName"] == grammar["scopeName"]
    settings = package["contributes"]["configuration"]["properties"]
    assert settings["unorules.server.command"]["default"] == ["unorules", "lsp"]
    assert (VSCODE / language["configuration"]).is_file()


# ---- every construct of docs/language.md has a snapshot ------------------------------------------

def doc_examples() -> dict[str, list[str]]:
    """docs/language.md's examples by section: its code blocks, the code of its tables' first two
    columns, and the code in its text that begins with a keyword."""
    words = {v.split()[0] for v in keyword_terminals().values()}
    sections: dict[str, list[str]] = {}
    name, in_code = "0-intro", False
    for line in (ROOT / "docs" / "language.md").read_text("utf-8").split("\n"):
        m = re.match(r"^##+ (\d+[a-z]?)\. (.*)", line)
        if m and not in_code:
            name = m.group(1) + "-" + re.sub(r"[^a-z]+", "-", m.group(2).lower()).strip("-")
            continue
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            sections.setdefault(name, []).append(line)
            continue
        table = line.startswith("|")
        cells = [c.strip() for c in line.strip("|").split("|")][:2] if table else [line]
        for cell in cells:
            for code in re.findall(r"`([^`]+)`", cell):
                first = re.match(r"[a-z_]+", code)
                if first and (table or (" " in code and first.group(0) in words)) and not code.startswith("unorules"):
                    sections.setdefault(name, []).append(code)
    return {k: list(dict.fromkeys(v)) for k, v in sections.items() if not k.startswith("12")}


def write_snapshot_sources():
    for name, lines in doc_examples().items():
        (SNAPSHOTS / f"{name}.uno").write_text(
            f"# docs/language.md, section {name}: its examples, for the TextMate grammar's snapshots\n"
            + "\n".join(lines) + "\n", "utf-8")


def test_every_example_of_the_reference_is_a_snapshot_source():
    for name, lines in doc_examples().items():
        source = SNAPSHOTS / f"{name}.uno"
        assert source.is_file(), f"{source.name} is missing: `python tests/test_editors.py --write`, then -u the snaps"
        have = source.read_text("utf-8").split("\n")
        missing = [ln for ln in lines if ln not in have]
        assert not missing, f"{source.name} lacks {missing[:3]}: run `python tests/test_editors.py --write`"
        assert (SNAPSHOTS / f"{name}.uno.snap").is_file()


# ---- the npm tools -------------------------------------------------------------------------------

def _npm_tool(name: str) -> Path:
    tool = VSCODE / "node_modules" / ".bin" / name
    if not tool.exists():
        if REQUIRED:
            pytest.fail(f"{tool} is missing: run `npm ci` in editors/vscode")
        pytest.skip(f"{name} is not installed (npm ci in editors/vscode)")
    return tool


def test_textmate_assertions():
    tool = _npm_tool("vscode-tmgrammar-test")
    out = subprocess.run([str(tool), "-g", str(GRAMMAR), str(SNAPSHOTS / "*.test")], capture_output=True,
                         text=True, cwd=VSCODE, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "assertions.uno.test run successfuly" in out.stdout


def test_textmate_snapshots_of_every_construct():
    tool = _npm_tool("vscode-tmgrammar-snap")
    out = subprocess.run([str(tool), "-g", str(GRAMMAR), str(SNAPSHOTS / "*.uno")], capture_output=True,
                         text=True, cwd=VSCODE, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count("run successfully") == len(doc_examples()), out.stdout


def test_the_extension_packages(tmp_path):
    tool = _npm_tool("vsce")
    out = subprocess.run([str(tool), "package", "--out", str(tmp_path / "unorules.vsix")], capture_output=True,
                         text=True, cwd=VSCODE, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    import zipfile
    names = zipfile.ZipFile(tmp_path / "unorules.vsix").namelist()
    assert "extension/syntaxes/uno.tmLanguage.json" in names and "extension/extension.js" in names
    assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names)


if __name__ == "__main__" and "--write" in sys.argv:      # regenerate the snapshot sources from the docs
    write_snapshot_sources()
    print("now run: cd editors/vscode && npx vscode-tmgrammar-snap -g syntaxes/uno.tmLanguage.json "
          "'../../tests/editors/*.uno' -u", file=sys.stderr)
    sys.exit(0)
