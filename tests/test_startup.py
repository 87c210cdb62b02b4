"""A fast start (bench/startup.py measures it): a command imports only what it uses, a file read
before is not parsed again (language/cache.py), and what the cache gives back is exactly what the
parser and the schema would have made."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import ROOT, run_cli, write
from unorules.errors import RulebookError
from unorules.language import cache, loader
from unorules.language.resources import rulebooks_dir


def modules_after(code: str, cache_home, *args) -> set[str]:
    """The modules a fresh Python has loaded after running `code` (with sys.argv = args)."""
    probe = (f"import sys; sys.argv = ['unorules', *{list(map(str, args))!r}]\n{code}\n"
             "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)))")
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert "MODULES " in done.stderr, done.stderr
    return set(done.stderr.rsplit("MODULES ", 1)[1].split())


RUN_MAIN = "from unorules.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass"
HEAVY = ("lark", "jsonschema", "yaml", "unorules.engine", "unorules.codegen", "unorules.agents", "unorules.runs")


def test_importing_the_package_or_the_command_line_loads_no_stage(tmp_path):
    for code in ("import unorules", "import unorules.cli"):
        loaded = modules_after(code, tmp_path)
        assert not [m for m in loaded if m.startswith(HEAVY)], code
    assert "unorules.engine.types" in modules_after("import unorules; unorules.CHANCE", tmp_path)


def test_validating_a_second_time_reads_no_grammar_and_no_schema(tmp_path):
    first = modules_after(RUN_MAIN, tmp_path, "validate", "official")
    assert {"lark", "jsonschema"} <= first                      # the first run parses and checks
    again = modules_after(RUN_MAIN, tmp_path, "validate", "official")
    assert not [m for m in again if m.startswith(HEAVY)]
    assert "unorules.language.checker" in again                # the merged rulebook is checked every time
    explained = modules_after(RUN_MAIN, tmp_path, "explain", "official")
    assert not [m for m in explained if m.startswith(("lark", "jsonschema", "unorules.engine"))]


def span_rows(parsed) -> list:
    return sorted(json.dumps(row) for row in cache._span_table(parsed.ir, parsed.spans))


@pytest.mark.parametrize("path", sorted(rulebooks_dir().rglob("*.uno")), ids=lambda p: p.name)
def test_a_kept_file_is_what_the_parser_and_the_schema_make(path):
    fresh = loader.parse_file(path, "f")
    cache.keep("f", fresh.text, fresh.ir, fresh.spans)
    kept = loader.parse_file(path, "f", recall=True)
    assert kept.schema_checked and not fresh.schema_checked
    assert kept.ir == fresh.ir and kept.ir is not fresh.ir
    assert span_rows(kept) == span_rows(fresh) and len(span_rows(fresh)) > 5


def test_yaml_spans_come_back_with_their_keys(tmp_path):
    p = write(tmp_path, "h.yaml", "kind: rulebook\nname: h\nextends: classic\nsetup: {hand: {kind: number, value: 5}}\n")
    fresh = loader.parse_file(p)
    cache.keep(str(p), fresh.text, fresh.ir, fresh.spans)
    kept = loader.parse_file(p, recall=True)
    assert kept.schema_checked and kept.ir == fresh.ir and span_rows(kept) == span_rows(fresh)
    assert any('["key"' in row for row in span_rows(kept))


def diagnostics(path) -> list[str]:
    try:
        loader.load(path)
    except RulebookError as e:
        return [json.dumps(d.as_dict(), sort_keys=True) for d in e.diagnostics]
    return []


def test_errors_read_the_same_from_kept_files(tmp_path):
    """The base files come from the cache the second time; every error, with its place, is the same."""
    p = write(tmp_path, "house.uno", "rulebook house\nextends official\ncard wild_dance { wild\n  on play: "
                                     "set color bleu\n}\ndeck { 2 × wild_dance\n 1 × wilde }\n")
    first = diagnostics(p)
    assert len(first) == 2 and any("bleu" in d for d in first)
    assert diagnostics(p) == first


def test_a_file_with_a_problem_is_never_kept_and_an_edited_file_is_read_again(tmp_path, monkeypatch):
    place = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(place))
    p = write(tmp_path, "h.uno", "rulebook h\nextends classic\nplayers 1..4\n")
    for _ in range(2):
        with pytest.raises(RulebookError) as e:
            loader.load(p)
        assert [d.code for d in e.value.diagnostics] == ["U0401"]
    assert not list((place / "unorules").glob("ir-*.json"))       # (the schema error stops before classic)
    p.write_text("rulebook h\nextends classic\nplayers 2..4\n")
    assert loader.load(p).ir["players"]["min"] == 2
    assert len(list((place / "unorules").glob("ir-*.json"))) == 2    # the file and classic
    p.write_text("rulebook h\nextends classic\nplayers 3..4\n")
    assert loader.load(p).ir["players"]["min"] == 3


def test_another_front_end_or_a_damaged_entry_reads_the_file_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    p = write(tmp_path, "h.uno", "rulebook h\nextends classic\nsetup { hand 5 }\n")
    fresh = loader.parse_file(p)
    cache.keep(str(p), fresh.text, fresh.ir, fresh.spans)
    assert cache.recall(str(p), fresh.text) is not None
    assert cache.recall(str(p), fresh.text + " ") is None       # another text
    assert cache.recall("other.uno", fresh.text) is None         # another file
    monkeypatch.setattr(cache, "_front_end", lambda: "another grammar or schema")
    assert cache.recall(str(p), fresh.text) is None
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for entry in (tmp_path / "unorules").glob("ir-*.json"):
        entry.write_text('{"ir": {"kind": "rulebook"}, "spans": [[["nowhere"], null, [1, 1, 1, 2]]]}')
    assert cache.recall(str(p), fresh.text) is None
    assert loader.load(p).ir["setup"]["hand"]["value"] == 5


def test_no_cache_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("UNORULES_NO_CACHE", "1")
    loader.load(write(tmp_path, "h.uno", "rulebook h\nextends classic\n"))
    assert not (tmp_path / "unorules").exists() or not list((tmp_path / "unorules").iterdir())


def test_the_cache_keeps_at_most_its_number_of_files(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    for i in range(6):
        cache.keep(f"f{i}.uno", f"text {i}", {"kind": "rulebook", "name": f"r{i}"}, loader.Spans())
    assert len(list((tmp_path / "unorules").glob("ir-*.json"))) == 3
    assert cache.recall("f5.uno", "text 5") is not None and cache.recall("f0.uno", "text 0") is None


def test_a_simulation_sees_a_file_changed_since_the_last_one(tmp_path):
    """Nothing of a rulebook is kept in the process between two runs: the second sees the edit."""
    import unorules
    p = write(tmp_path, "h.uno", "rulebook h\nextends classic\nsetup { hand 7 }\n")
    first = unorules.simulate(p, games=3, players=2, workers=1)
    p.write_text("rulebook h\nextends classic\nsetup { hand 1 }\n")
    second = unorules.simulate(p, games=3, players=2, workers=1)
    assert second["turns_per_round"]["mean"] < first["turns_per_round"]["mean"]


def test_simulate_loads_its_rulebook_once(tmp_path, monkeypatch):
    calls = []
    real = loader.load
    monkeypatch.setattr(loader, "load", lambda *a, **k: calls.append(a) or real(*a, **k))
    code, out, err = run_cli("simulate", "official", "--games", "2", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["games"] == 2
    assert len(calls) == 1


def test_the_startup_bench_runs(tmp_path):
    """bench/startup.py measures; here it only has to run (two runs, one command's worth of time)."""
    if not (ROOT / ".git").exists():
        pytest.skip("the bench compares against a commit of the repository")
    done = subprocess.run([sys.executable, str(ROOT / "bench/startup.py"), "--runs", "2", "--base", "HEAD"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "validate" in done.stdout and "simulate --games 1" in done.stdout
