"""What every command shares: the `cli` group, printing without terminal escapes, the
`--path` option, the rendering of rulebook errors, and the checks and writes of output files.
With the rest of this package, the only code that prints or exits."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import click

from unorules import __version__
from unorules.errors import RulebookError

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def echo(message="", **kw):
    """click.echo, with control characters shown as `\\xNN`: nothing a rulebook says (a title, a
    name, a help text) can send escape sequences to the terminal."""
    click.echo(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(message)), **kw)


PATH_OPTION = click.option("--path", "search", multiple=True, type=click.Path(file_okay=False),
                           help="Another folder to look in for `extends`/`include` names (repeatable).")


def fail_render(err: RulebookError, fmt: str = "text"):
    if fmt == "json":
        echo(json.dumps({"ok": False, "diagnostics": [d.as_dict() for d in err.diagnostics]}, indent=2))
    else:
        echo(err.render(), err=True)
        n = len(err.diagnostics)
        echo(f"\n{n} error{'s' if n != 1 else ''}", err=True)
    sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="unorules")
def cli():
    """unorules: UNO rulebooks as data. Validate, format, export, simulate and test rules."""


def write_output(path, text, param):
    """Write a file for a command (atomically); a path that cannot be written is a usage error."""
    from unorules.language.writer import write_atomic
    try:
        write_atomic(path, text)
    except OSError as e:
        raise click.BadParameter(f"cannot write `{path}`: {e.strerror or e}", param_hint=param) from None


def writable(path, param):
    """Fail early, as a usage error, when an output file cannot be created."""
    p = Path(path)
    try:
        if p.is_dir():
            raise IsADirectoryError(21, "is a folder")
        existed = p.exists()
        with open(p, "a", encoding="utf-8"):
            pass
        if not existed and p.is_file():   # only a check: a run that fails later leaves no empty file behind
            p.unlink()
    except OSError as e:
        raise click.BadParameter(f"cannot write `{path}`: {e.strerror or e}", param_hint=param) from None


def not_an_input(output, inputs, param):
    """Refuse an output that is one of the command's own inputs: writing it would replace the file
    the run was made from (or that it reads). The same file by its path or by its inode (a hard
    link, a bind mount, another path to it)."""
    if output is None:
        return
    try:
        out = Path(output).resolve()
    except (OSError, RuntimeError):
        return
    try:
        st = os.stat(out)
        out_inode = (st.st_dev, st.st_ino)
    except OSError:
        out_inode = None
    for i in inputs:
        try:
            same = Path(i).resolve() == out
            if not same and out_inode is not None:
                si = os.stat(i)
                same = (si.st_dev, si.st_ino) == out_inode
        except (OSError, RuntimeError):
            continue
        if same:
            raise click.BadParameter(f"`{output}` is one of this command's inputs: writing it would replace it; "
                                     "choose another file", param_hint=param)
