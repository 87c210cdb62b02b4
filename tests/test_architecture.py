"""The package's layout holds: the stages import one way, no module imports itself round a cycle,
and every name the README and the docs tell people to import still imports (docs/architecture.md)."""
from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")


def lint(folder: Path) -> subprocess.CompletedProcess:
    """import-linter's contracts of pyproject.toml, checked on the package in `folder`."""
    return subprocess.run([sys.executable, "-c", LINT], cwd=folder, capture_output=True, text=True, timeout=300)


def copy_of_the_package(tmp_path) -> Path:
    shutil.copytree(ROOT / "unorules", tmp_path / "unorules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_layer_contracts_are_kept():
    pytest.importorskip("importlinter")
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


@pytest.mark.parametrize("lower, line, broken", [
    # the language importing the command line, inside a function (a late import counts as much)
    ("language/ir.py", "def _late():\n    from unorules.cli import main\n", "unorules.language is not allowed to import unorules.cli"),
    # the engine importing a run of many games
    ("engine/state.py", "from unorules.runs import stats  # noqa\n", "unorules.engine is not allowed to import unorules.runs"),
    # two stages beside each other: the generated code may not use an agent
    ("codegen/options.py", "from unorules.agents import base  # noqa\n", "unorules.codegen is not allowed to import unorules.agents"),
])
def test_an_import_from_a_lower_layer_to_a_higher_one_fails(tmp_path, lower, line, broken):
    pytest.importorskip("importlinter")
    folder = copy_of_the_package(tmp_path)
    with open(folder / "unorules" / lower, "a", encoding="utf-8") as f:
        f.write("\n\n" + line)
    done = lint(folder)
    assert done.returncode == 1
    assert broken in done.stdout and "BROKEN" in done.stdout


def test_a_cycle_inside_a_package_fails(tmp_path):
    pytest.importorskip("importlinter")
    folder = copy_of_the_package(tmp_path)
    with open(folder / "unorules/engine/types.py", "a", encoding="utf-8") as f:
        f.write("\n\ndef _late():\n    from .state import State  # noqa\n")     # state imports types
    done = lint(folder)
    assert done.returncode == 1
    assert "No import cycles among the modules of any package BROKEN" in done.stdout
    assert "unorules.engine" in done.stdout


def strongly_connected(graph) -> list[list[str]]:
    """The import cycles of a grimp graph (its strongly connected parts of more than one module)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        work = [(v, iter(edges[v]))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(edges[w])))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        part.append(w)
                        if w == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))

    for m in sorted(edges):
        if m not in index:
            visit(m)
    return found


def test_no_module_imports_itself_round_a_cycle():
    """Over every import, at the top of a module or inside a function."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("unorules", include_external_packages=False)
    assert len(graph.modules) > 60
    assert strongly_connected(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    grimp = pytest.importorskip("grimp")
    graph = grimp.ImportGraph()
    for a, b in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
        graph.add_import(importer=a, imported=b)
    assert strongly_connected(graph) == [["p.a", "p.b", "p.c"]]


# -- the public API: every name the README and the docs use ---------------------------------------

PUBLIC = ["unorules.load", "unorules.validate", "unorules.simulate", "unorules.Game", "unorules.Action",
          "unorules.CHANCE", "unorules.TERMINAL", "unorules.Diagnostic", "unorules.RulebookError",
          "unorules.RuleRuntimeError", "unorules.IllegalAction", "unorules.UnorulesError",
          "unorules.testing.run_scenario", "unorules.cli.main", "unorules.envs.make_game"]
OPTIONAL = {"unorules.envs.pettingzoo": "pettingzoo", "unorules.envs.openspiel": "pyspiel",
            "unorules.envs.rlcard": "rlcard"}


def documented_names() -> set[str]:
    """`unorules.x.y` and `from unorules.x import a, b` in the README, the docs and the examples."""
    names = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text("utf-8")
        for module, imported in re.findall(r"from (unorules(?:\.\w+)*) import ([\w, ]+)", text):
            names.update(f"{module}.{n.split(' as ')[0].strip()}" for n in imported.split(",") if n.strip())
        names.update(m for m in re.findall(r"\bunorules(?:\.\w+)+", text) if not m.endswith(".lark"))
    # the VS Code extension's settings (`unorules.server.command`) are its names, not Python's
    settings = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    return names - set(settings["contributes"]["configuration"]["properties"])


def resolve(dotted: str):
    """The object a dotted name stands for: the longest module prefix imported, the rest attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as e:
            if e.name and not ".".join(parts[:cut]).startswith(e.name):
                raise                          # a module it needs is missing: not a wrong name
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def test_the_docs_name_the_public_api():
    found = documented_names()
    for name in ("unorules.load", "unorules.simulate", "unorules.testing.run_scenario", "unorules.envs.rlcard.make"):
        assert name in found


@pytest.mark.parametrize("name", sorted(set(PUBLIC) | documented_names()))
def test_every_documented_name_imports(name):
    library = next((lib for module, lib in OPTIONAL.items() if name.startswith(module)), None)
    if library:
        pytest.importorskip(library)
    assert resolve(name) is not None


def test_a_name_that_is_not_there_is_caught():
    with pytest.raises((AttributeError, ModuleNotFoundError)):
        resolve("unorules.no_such_name")
    with pytest.raises((AttributeError, ModuleNotFoundError)):
        resolve("unorules.testing.no_such_function")
