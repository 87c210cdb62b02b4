"""The command line (click). The only package that prints or exits.

Exit codes: 0 ok, 1 a rulebook, scenario or rule failed, 2 usage error, 3 a bug in unorules.
common.py holds the `cli` group; commands.py (one rulebook or file) and runs.py (many games)
add their commands to it. May use every other stage; nothing imports it.
"""
from __future__ import annotations

import os
import sys

import click

from unorules.errors import RulebookError, UnorulesError
from . import commands, runs  # noqa: F401  (each adds its commands to the group)
from .common import cli, echo

__all__ = ["cli", "main"]


def main():
    try:
        cli.main(standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        echo("\ninterrupted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.ClickException as e:
        e.show()
        sys.exit(e.exit_code)
    except RulebookError as e:            # from a command that did not render it itself
        echo(e.render(), err=True)
        sys.exit(1)
    except UnorulesError as e:
        echo(f"error: {e}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        echo("interrupted", err=True)
        sys.exit(130)
    except Exception as e:                 # a bug in unorules, not in the input
        if os.environ.get("UNORULES_DEBUG"):
            raise
        echo(f"internal error: {type(e).__name__}: {e}\n(this is a bug in unorules; "
             "run with UNORULES_DEBUG=1 for the traceback and report it)", err=True)
        sys.exit(3)
