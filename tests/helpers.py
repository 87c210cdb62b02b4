"""Shared helpers for the test suite."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from unorules.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def run_cli(*args, input=None):
    """Invoke the CLI in-process; returns (exit_code, stdout, stderr)."""
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=True)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def codes_of(path):
    """The error codes of loading `path`: [] when it is a valid rulebook."""
    from unorules.errors import RulebookError
    from unorules.language.loader import load
    try:
        load(path)
    except RulebookError as e:
        return [d.code for d in e.diagnostics]
    return []


def write(tmp_path, name, text, mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p
