"""Where the package's data lives: the grammar, the schema and the shipped rulebooks.

An installed wheel carries them as the subpackages `unorules.grammars` and `unorules.rulebooks`
(pyproject.toml maps the repository's top-level folders there); a source checkout reads the
top-level folders directly.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _folder(package: str, repo_dir: str) -> Path:
    try:
        found = resources.files(package)
        path = Path(str(found))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _REPO / repo_dir


def grammar_file() -> Path:
    return _folder("unorules.grammars", "grammars") / "unorules.lark"


def rulebooks_dir() -> Path:
    return _folder("unorules.rulebooks", "rulebooks")


def schema_file() -> Path:
    return Path(__file__).resolve().parent / "schema.json"


def docs_file() -> Path | None:
    """The language reference, for `unorules errors CODE` (present in a source checkout)."""
    p = _REPO / "docs" / "language.md"
    return p if p.is_file() else None
