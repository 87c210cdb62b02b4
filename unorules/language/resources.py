"""Where the package's data lives: the grammar, the schema and the shipped rulebooks.

An installed wheel carries them inside the package (`unorules/grammars`, `unorules/rulebooks`;
pyproject.toml maps the repository's top-level folders there); a source checkout reads the
repository's top-level folders.
"""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent      # unorules/
_REPO = _PACKAGE.parent


def _folder(name: str) -> Path:
    inside = _PACKAGE / name
    return inside if inside.is_dir() else _REPO / name


def grammar_file() -> Path:
    return _folder("grammars") / "unorules.lark"


def rulebooks_dir() -> Path:
    return _folder("rulebooks")


def schema_file() -> Path:
    return Path(__file__).resolve().parent / "schema.json"


def docs_file() -> Path | None:
    """The language reference, for `unorules errors CODE` (present in a source checkout)."""
    p = _folder("docs") / "language.md"
    return p if p.is_file() else None
